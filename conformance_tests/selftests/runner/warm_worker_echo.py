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

"""A stand-in test worker for selftests/runner/test_warm_workers.py: says
what it was given and exits with the code its first argument names."""

import json
import os
import random
import sys
import tempfile

if __name__ == '__main__':
    print(json.dumps({'argv': sys.argv, 'cwd': os.getcwd(),
                      'ppid': os.getppid(), 'path0': sys.path[0],
                      'marker': os.environ.get('WARM_WORKER_MARKER'),
                      'random': random.random(),
                      'tmp': tempfile.gettempdir(),
                      'stdin': sys.stdin.read()}))
    sys.stderr.write('to stderr\n')
    sys.exit(int(sys.argv[1]))
