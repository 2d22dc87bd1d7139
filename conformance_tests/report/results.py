"""Test results from a subunit v2 stream, keyed by idempotent id."""

import re

import subunit
import testtools

_ATTRS = re.compile(r'\[([^\]]*)\]$')
STATUS = {'success': 'pass', 'fail': 'fail', 'skip': 'skip',
          'xfail': 'fail', 'uxsuccess': 'fail'}


def idempotent_id(test_id):
    match = _ATTRS.search(test_id)
    if match:
        for attr in match.group(1).split(','):
            if attr.startswith('id-'):
                return attr[3:]
    return None


def _text(details, name):
    if name in details:
        return details[name].as_text()
    return None


def read(stream):
    """{idempotent id: {name, status, requests, reason}} from a stream.

    Tests without an idempotent id are reported under their full name.
    """
    found = []
    case = subunit.ByteStreamToStreamResult(stream, non_subunit_name='stdout')
    collector = testtools.StreamToDict(found.append)
    collector.startTestRun()
    case.run(collector)
    collector.stopTestRun()
    results = {}
    for test in found:
        if test['status'] not in STATUS:
            continue  # 'exists', 'inprogress': not a verdict
        requests = _text(test['details'], 'gabbi-requests')
        reason = (_text(test['details'], 'traceback') or
                  _text(test['details'], 'reason') or '')
        key = idempotent_id(test['id']) or test['id']
        results[key] = {
            'name': _ATTRS.sub('', test['id']),
            'status': STATUS[test['status']],
            'requests': int(requests) if requests else 0,
            'reason': _failure_summary(reason) if test['status'] in (
                'fail', 'skip', 'xfail', 'uxsuccess') else '',
        }
    return results


def _failure_summary(text):
    """The part of a traceback a reader needs: from 'spec rule' on."""
    text = text.strip()
    marker = text.find('spec rule broken:')
    if marker >= 0:
        return text[marker:][:3000]
    return '\n'.join(text.splitlines()[-6:])[:3000]
