"""Real glance's API, its database migrated, built in this process.

What `glance-manage db sync` and glance's WSGI entry point (the one uWSGI
runs) do, called in-process: one interpreter start instead of two.
"""

import os


def build_app(config_file):
    # glance's WSGI entry point finds its config through this variable
    # only; this process is glance's, so setting it hides nothing.
    os.environ['OS_GLANCE_CONFIG_DIR'] = os.path.dirname(config_file)
    from oslo_config import cfg
    # Importing these registers the options that parsing needs.
    from glance.cmd import manage
    from glance.common import config
    from glance.common import wsgi_app

    config.set_config_defaults()
    cfg.CONF([], project='glance', prog='glance-manage',
             default_config_files=[config_file])
    manage.DbCommands().sync()
    # init_app parses the same files again, as glance-api.
    return wsgi_app.init_app()
