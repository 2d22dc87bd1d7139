"""Placeholder, filled in below."""


def add_parsers(sub, common, cloud_options):
    pass
