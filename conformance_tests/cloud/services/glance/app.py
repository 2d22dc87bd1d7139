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

"""Real glance's API, its database migrated, built in this process.

What `glance-manage db sync` and glance's WSGI entry point (the one uWSGI
runs) do, called in-process: one interpreter start instead of two.
"""

import os


def build_app(config_file):
    # glance's WSGI entry point finds its config through this variable
    # only; this process is glance's, so setting it hides nothing.
    os.environ['OS_GLANCE_CONFIG_DIR'] = os.path.dirname(config_file)
    # Importing these registers the options that parsing needs.
    from glance.cmd import manage
    from glance.common import config
    from glance.common import wsgi_app
    from oslo_config import cfg

    config.set_config_defaults()
    cfg.CONF([], project='glance', prog='glance-manage',
             default_config_files=[config_file])
    manage.DbCommands().sync()
    # init_app parses the same files again, as glance-api.
    return wsgi_app.init_app()
