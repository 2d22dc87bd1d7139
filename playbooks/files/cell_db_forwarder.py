#!/usr/bin/env python3
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

"""A TCP forwarder that stands between nova and one cell's database.

    cell_db_forwarder.py --pidfile FILE LISTEN_HOST LISTEN_PORT \
        TARGET_HOST TARGET_PORT

The cell's database connection (its cell mapping and the cell
conductor's nova.conf) names LISTEN_HOST:LISTEN_PORT; every connection
made there is relayed byte for byte to the database at
TARGET_HOST:TARGET_PORT. Stopping the forwarder is what an outage of that
database looks like to nova: its open connections are reset and new ones
are refused, since nothing listens on the port any more. The database
server itself, its accounts and the other cells are never touched.

cell-db-fault.sh starts and stops it. The pid file is written only once
the port listens, so "up" returns when the cell is reachable again.
SIGTERM resets every relayed connection (SO_LINGER 0: the peer sees a
reset, as when the server is gone, not an orderly goodbye) and exits.

Python 3 standard library only: it must run on any DevStack node.
"""

import argparse
import os
import signal
import socket
import struct
import sys
import threading

CHUNK = 65536
# Connecting to the database is the only wait: a real outage of the
# target must turn into an error for nova, not a hang.
CONNECT_TIMEOUT = 10


class Relay(object):
    """One client connection and its connection to the database."""

    def __init__(self, client, server, live):
        self.client, self.server = client, server
        self.live = live
        self.lock = threading.Lock()
        self.pumps_left = 2

    def start(self):
        with self.live.lock:
            self.live.relays.add(self)
        for src, dst in ((self.client, self.server),
                         (self.server, self.client)):
            threading.Thread(target=self._pump, args=(src, dst),
                             daemon=True).start()

    def _pump(self, src, dst):
        try:
            while True:
                data = src.recv(CHUNK)
                if not data:
                    break
                dst.sendall(data)
        except OSError:
            pass
        # Either side leaving ends the pair: shutting both sockets down
        # wakes the other pump, and the last pump out closes them.
        for sock in (self.client, self.server):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        with self.lock:
            self.pumps_left -= 1
            last = self.pumps_left == 0
        if last:
            with self.live.lock:
                self.live.relays.discard(self)
            self.client.close()
            self.server.close()

    def arm_reset(self):
        """Make the kernel reset both connections when they are closed."""
        for sock in (self.client, self.server):
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                struct.pack('ii', 1, 0))
            except OSError:
                pass


class Live(object):
    def __init__(self):
        self.lock = threading.Lock()
        self.relays = set()


def listen(host, port):
    family, kind, proto, _, addr = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    # "up" right after "down" must be able to bind the port again.
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(addr)
    sock.listen(128)
    return sock


def write_pidfile(path):
    tmp = '%s.%d.tmp' % (path, os.getpid())
    with open(tmp, 'w') as f:
        f.write('%d\n' % os.getpid())
    os.replace(tmp, path)


def say(message):
    sys.stderr.write('cell_db_forwarder[%d]: %s\n' % (os.getpid(), message))
    sys.stderr.flush()


class Stop(Exception):
    pass


def _stop(signum, frame):
    raise Stop(signal.Signals(signum).name)


def serve(listener, target, live):
    while True:
        client, _ = listener.accept()
        try:
            server = socket.create_connection(target,
                                              timeout=CONNECT_TIMEOUT)
        except OSError as e:
            # The database itself is down: the client sees its
            # connection closed at once, as with no forwarder.
            say('cannot reach %s:%s: %s' % (target[0], target[1], e))
            client.close()
            continue
        server.settimeout(None)
        Relay(client, server, live).start()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--pidfile', required=True)
    parser.add_argument('listen_host')
    parser.add_argument('listen_port', type=int)
    parser.add_argument('target_host')
    parser.add_argument('target_port', type=int)
    args = parser.parse_args(argv)

    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        listener = listen(args.listen_host, args.listen_port)
    except OSError as e:
        say('cannot listen on %s:%s: %s' % (
            args.listen_host, args.listen_port, e))
        return 1
    write_pidfile(args.pidfile)
    say('relaying %s:%s -> %s:%s' % (args.listen_host, args.listen_port,
                                     args.target_host, args.target_port))
    live = Live()
    try:
        serve(listener, (args.target_host, args.target_port), live)
    except Stop as e:
        # Refuse first, then cut what is open.
        listener.close()
        with live.lock:
            relays = list(live.relays)
        for relay in relays:
            relay.arm_reset()
        say('%s: stopped listening, resetting %d open connection(s)' % (
            e, len(relays)))
        try:
            with open(args.pidfile) as f:
                if f.read().strip() == str(os.getpid()):
                    os.unlink(args.pidfile)
        except OSError:
            pass
        # Exiting closes every socket; SO_LINGER 0 makes each a reset.
        # os._exit: the relay threads may be blocked in recv().
        sys.stderr.flush()
        os._exit(0)


if __name__ == '__main__':
    sys.exit(main())
