"""Capabilities from guidelines/*.yaml, interop-guideline style."""

import glob
import os

import yaml

from conformance_tests.common import paths


class GuidelineError(ValueError):
    pass


def load_all(directory=None):
    """All capabilities, in file order, each with its seed and feature."""
    directory = directory or paths.data_path('guidelines')
    capabilities = []
    seen = {}
    for path in sorted(glob.glob(os.path.join(directory, '*.yaml'))):
        with open(path) as f:
            doc = yaml.safe_load(f) or {}
        for key in ('seed', 'feature', 'capabilities'):
            if not isinstance(doc, dict) or not doc.get(key):
                raise GuidelineError('%s: no %s:' % (
                    os.path.basename(path), key))
        for cap in doc['capabilities']:
            for key in ('id', 'rule', 'tests'):
                if not cap.get(key):
                    raise GuidelineError('%s: a capability lacks %s' % (
                        os.path.basename(path), key))
            if cap['id'] in seen:
                raise GuidelineError('%s: capability %s is also in %s' % (
                    os.path.basename(path), cap['id'], seen[cap['id']]))
            seen[cap['id']] = os.path.basename(path)
            capabilities.append({
                'id': cap['id'], 'seed': doc['seed'],
                'feature': doc['feature'], 'rule': cap['rule'],
                'tests': [str(t) for t in cap['tests']],
                'expected_fail': cap.get('expected_fail'),
                'expect': cap.get('expect') or {},
                'disruptive': bool(cap.get('disruptive', False)),
            })
    return capabilities
