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

"""A forward proxy for the DevStack node, listening inside its network.

    python -m conformance_tests.devstack.proxy --leader PID --log FILE \\
        --allow HOST [--allow HOST ...]

The node has only its own private network, so nothing it listens on
meets another cloud on the machine, and it reaches nothing by itself.
This process opens its listening socket inside the node's network
namespace (a socket stays in the namespace it was made in) and then
returns to the machine's, where it connects to the registries for the
node: apt and pip in the node use http://127.0.0.1:PORT as their proxy.

Only the hosts given with --allow are reached (the package registries
this machine reaches anyway); any other request is answered 403 with
the list, and logged, so a DevStack step that downloads from elsewhere
fails with a line that says where it went. Every upstream request gets
"Connection: close", so one client connection never carries requests
for two hosts. The proxy exits when the node's leader process is gone.

Python 3.11 has no os.setns, hence the one libc call (ctypes).
"""

import argparse
import ctypes
import os
import select
import socket
import sys
import threading
import time

PORT = 3128
CLONE_NEWNET = 0x40000000
BUFFER = 65536


def listen_in(leader, port):
    """A listening socket on 127.0.0.1:port in the network namespace of
    process ``leader``; this thread is back in its own afterwards."""
    libc = ctypes.CDLL(None, use_errno=True)
    own = os.open('/proc/self/ns/net', os.O_RDONLY)
    target = os.open('/proc/%d/ns/net' % leader, os.O_RDONLY)
    try:
        if libc.setns(target, CLONE_NEWNET):
            raise OSError(ctypes.get_errno(), 'setns into the node')
        try:
            server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            server.bind(('127.0.0.1', port))
            server.listen(64)
        finally:
            if libc.setns(own, CLONE_NEWNET):
                raise OSError(ctypes.get_errno(), 'setns back')
    finally:
        os.close(own)
        os.close(target)
    return server


def _read_head(conn):
    data = b''
    while b'\r\n\r\n' not in data:
        chunk = conn.recv(BUFFER)
        if not chunk:
            return None, b''
        data += chunk
        if len(data) > 1 << 20:
            return None, b''
    head, rest = data.split(b'\r\n\r\n', 1)
    return head.decode('latin-1'), rest


def _relay(a, b):
    sockets = [a, b]
    while True:
        readable, _, _ = select.select(sockets, [], [], 300)
        if not readable:
            return
        for s in readable:
            data = s.recv(BUFFER)
            if not data:
                return
            (b if s is a else a).sendall(data)


class Proxy(object):
    def __init__(self, allowed, log):
        self.allowed = {h.lower() for h in allowed}
        self.log = log
        self.lock = threading.Lock()

    def say(self, line):
        with self.lock:
            self.log.write('%s %s\n' % (time.strftime('%H:%M:%S'), line))
            self.log.flush()

    def refuse(self, conn, host):
        body = ('conformance devstack proxy: %s is not a registry this '
                'machine reaches; allowed: %s\n' % (
                    host, ', '.join(sorted(self.allowed)))).encode()
        conn.sendall(b'HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain'
                     b'\r\nConnection: close\r\nContent-Length: %d\r\n\r\n'
                     % len(body) + body)
        self.say('refused %s' % host)

    def handle(self, conn):
        try:
            head, rest = _read_head(conn)
            if head is None:
                return
            lines = head.split('\r\n')
            method, target, version = (lines[0].split(' ') + ['', ''])[:3]
            if method == 'CONNECT':
                host, _, port = target.rpartition(':')
                if host.lower() not in self.allowed:
                    return self.refuse(conn, host)
                upstream = socket.create_connection((host, int(port)), 60)
                conn.sendall(b'HTTP/1.1 200 Connection established\r\n\r\n')
                if rest:
                    upstream.sendall(rest)
                self.say('CONNECT %s' % target)
            else:
                if not target.startswith('http://'):
                    return self.refuse(conn, target)
                hostport, _, path = target[len('http://'):].partition('/')
                host, _, port = hostport.partition(':')
                if host.lower() not in self.allowed:
                    return self.refuse(conn, host)
                headers = [h for h in lines[1:] if h.split(':', 1)[0].lower()
                           not in ('connection', 'proxy-connection',
                                   'keep-alive')]
                request = '\r\n'.join(
                    ['%s /%s %s' % (method, path, version)] + headers +
                    ['Connection: close', '', ''])
                upstream = socket.create_connection((host, int(port or 80)),
                                                    60)
                upstream.sendall(request.encode('latin-1') + rest)
                self.say('%s %s' % (method, target))
            try:
                _relay(conn, upstream)
            finally:
                upstream.close()
        except OSError as e:
            self.say('error %s' % e)
        finally:
            conn.close()

    def serve(self, server, leader):
        server.settimeout(5)
        while os.path.exists('/proc/%d' % leader):
            try:
                conn, _ = server.accept()
            except socket.timeout:
                continue
            except OSError:
                # closed under us: the caller is stopping the proxy
                return
            conn.settimeout(None)
            threading.Thread(target=self.handle, args=(conn,),
                             daemon=True).start()
        self.say('the node is gone: the proxy stops')


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog='python -m conformance_tests.devstack.proxy',
        description='a forward proxy listening inside the DevStack node')
    parser.add_argument('--leader', type=int, required=True,
                        help="the node's systemd pid")
    parser.add_argument('--port', type=int, default=PORT)
    parser.add_argument('--allow', action='append', required=True,
                        help='a host the node may reach (repeatable)')
    parser.add_argument('--log', required=True)
    args = parser.parse_args(argv)
    try:
        server = listen_in(args.leader, args.port)
    except OSError as e:
        sys.exit('conformance devstack proxy: cannot listen in the node '
                 '(pid %d): %s' % (args.leader, e))
    with open(args.log, 'a') as log:
        proxy = Proxy(args.allow, log)
        proxy.say('listening on 127.0.0.1:%d in the node, allowed: %s' % (
            args.port, ', '.join(sorted(proxy.allowed))))
        proxy.serve(server, args.leader)


if __name__ == '__main__':
    main()
