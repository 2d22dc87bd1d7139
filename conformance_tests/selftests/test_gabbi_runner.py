"""common/gabbi_runner.py: generated tests, skips and failure text."""

import types

import testtools

from conformance_tests.common import gabbi_files
from conformance_tests.common import gabbi_runner


class GenerateTestsTest(testtools.TestCase):

    def make_class(self, **attrs):
        attrs.setdefault('gabbi_service', 'placement')
        return type('Generated', (object,), attrs)

    def test_one_method_per_file_with_rule_and_id(self):
        cls = gabbi_runner.generate_tests(self.make_class())
        paths = gabbi_files.test_files('placement')
        for path in paths:
            name = gabbi_files.test_name(path)
            method = getattr(cls, name)
            meta = gabbi_files.load(path)['meta']
            self.assertIn(meta['rule'], method.__doc__)
            self.assertEqual(name, method.__name__)
            self.assertIn('id-%s' % meta['id'],
                          getattr(method, '__testtools_attrs'))

    def test_name_clash_is_refused(self):
        path = gabbi_files.test_files('placement')[0]
        cls = self.make_class(**{gabbi_files.test_name(path): None})
        self.assertRaises(gabbi_files.GabbiFileError,
                          gabbi_runner.generate_tests, cls)


class FakeRunner(gabbi_runner.GabbiFileRunner):
    gabbi_service = 'placement'

    def __init__(self, conf_min, conf_max):
        self.conf = types.SimpleNamespace(placement=types.SimpleNamespace(
            min_microversion=conf_min, max_microversion=conf_max))
        self.skipped = None

    def conf_for_gabbi(self):
        return self.conf

    def skipTest(self, reason):
        self.skipped = reason


class SkipOutsideRangeTest(testtools.TestCase):

    def test_inside_range_runs(self):
        runner = FakeRunner('1.0', 'latest')
        runner._skip_outside_range({'min_microversion': '1.32'})
        self.assertIsNone(runner.skipped)

    def test_above_max_skips(self):
        runner = FakeRunner('1.0', '1.31')
        runner._skip_outside_range({'min_microversion': '1.32',
                                    'max_microversion': '1.33'})
        self.assertIn('max_microversion', runner.skipped)
        self.assertIn('1.33', runner.skipped)


class FailureMessageTest(testtools.TestCase):

    def test_message_starts_with_the_rule(self):
        case = types.SimpleNamespace(test_data={'name': 'req one'},
                                     id=lambda: 'x')
        trace = ('Traceback (most recent call last):\n'
                 '  File "a.py", line 1\n'
                 'AssertionError: expected 200, got 400\n')
        msg = gabbi_runner._failure_message(
            '/a/forbidden-x.yaml', {'rule': 'the rule'}, [(case, trace)], 3)
        lines = msg.splitlines()
        self.assertEqual('spec rule broken: the rule', lines[0])
        self.assertEqual('forbidden-x.yaml: 1 of 3 requests failed',
                         lines[1])
        self.assertIn('--- req one', lines)
        self.assertIn('AssertionError: expected 200, got 400', lines)
        self.assertNotIn('Traceback (most recent call last):', lines)

    def test_useful_part_falls_back_to_the_tail(self):
        trace = '\n'.join('line %d' % i for i in range(30))
        self.assertEqual('\n'.join('line %d' % i for i in range(15, 30)),
                         gabbi_runner._useful_part(trace))
