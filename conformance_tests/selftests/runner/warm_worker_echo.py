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
