#    Licensed under the Apache License, Version 2.0 (the "License"); you may
#    not use this file except in compliance with the License. You may obtain
#    a copy of the License at
#
#         http://www.apache.org/licenses/LICENSE-2.0
#
#    Unless required by applicable law or agreed to in writing, software
#    distributed under the License is distributed on an "AS IS" BASIS, WITHOUT
#    WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied. See the
#    License for the specific language governing permissions and limitations
#    under the License.

"""`conformance bench`: how fast the suite and its embedded cloud are.

A benchmark beside the suite, never a timed test: it measures, on the
machine it runs on, the figures its targets (targets.py) judge, and writes
``<workdir>/bench.json``, ``bench.md`` and ``bench.png``. Each figure
comes from one module:

- cold_start: the launcher's own "X ready (t s)" lines;
- boots: server boot latency, by the suite's waiter and by a tight loop
  (runs in a child process that loads the cloud's tempest.conf);
- suite_runs: `conformance run` per seed and in all;
- gabbi_cost: our placement YAML beside upstream placement's gabbits;
- mutant_runs: `conformance mutants` (or a mutants.json just made);
- scale: the anti-affinity fill-and-overflow scenario at H hosts;
- report and plot: the files.
"""
