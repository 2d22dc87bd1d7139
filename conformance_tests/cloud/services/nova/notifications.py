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

"""Nova's versioned server group notifications, kept for the control
endpoint (seed 000: server_group.create, delete and add_member carry the
group's policy and rules).

nova's harness sends notifications to oslo.messaging's in-memory test
driver, but builds nova's notifiers (nova.rpc.init) before the cloud's
flags apply, with nova's default [notifications] notification_format,
unversioned: no versioned notification is ever made. After the flags
(notification_format = versioned), install() builds them again as
nova.rpc.init does for that format, and makes the test driver keep only
the last KEPT server group notifications: nothing else reads them, and a
cloud lives for hours. Like transport_wakeup, this changes the harness,
never what nova sends.
"""

import collections
import threading

KEPT = 500
EVENT_PREFIX = 'server_group.'

_kept = collections.deque(maxlen=KEPT)
_lock = threading.Lock()


def install(conf):
    from nova import rpc
    import oslo_messaging as messaging
    from oslo_messaging.notify import _impl_test

    def notify(self, ctxt, message, priority, retry):
        keep(message)
    _impl_test.TestDriver.notify = notify

    serializer = rpc.RequestContextSerializer(rpc.JsonPayloadSerializer())
    rpc.LEGACY_NOTIFIER = messaging.Notifier(
        rpc.NOTIFICATION_TRANSPORT, serializer=serializer, driver='noop')
    rpc.NOTIFIER = messaging.Notifier(
        rpc.NOTIFICATION_TRANSPORT, serializer=serializer,
        topics=conf.notifications.versioned_notifications_topics)


def keep(message):
    """Keep a server group notification (the last KEPT); drop others."""
    if str(message.get('event_type', '')).startswith(EVENT_PREFIX):
        with _lock:
            _kept.append(message)


def sent(event_type):
    """The kept notifications of ``event_type``, oldest first, each
    {event_type, priority, payload} (payload: the versioned object's
    primitive, as a consumer of the bus reads it)."""
    with _lock:
        found = list(_kept)
    return [{'event_type': m.get('event_type'),
             'priority': m.get('priority'), 'payload': m.get('payload')}
            for m in found if m.get('event_type') == event_type]
