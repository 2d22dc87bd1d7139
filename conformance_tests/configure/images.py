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

"""The images Tempest's image_ref and image_ref_alt name, chosen from
glance before python-tempestconf runs.

python-tempestconf looks for an image named after its cirros URL and
otherwise downloads cirros from the internet, which a gate node or a
vendor's lab often cannot reach, although the cloud has images. This
picks two images the cloud already serves, with openstacksdk reading
the same clouds.yaml entry or OS_* variables python-tempestconf reads.
"""

import logging


class ImageError(Exception):
    """One line: why no image could be chosen, and what to give."""


def choose(images):
    """(image_ref, image_ref_alt) ids from glance's images (dicts with
    id, name, status, visibility, size): the two smallest active public
    ones (then by name), the same one twice when there is one. None when
    there is none."""
    usable = sorted(
        (i for i in images if i.get('status') == 'active' and
         i.get('visibility') == 'public'),
        key=lambda i: (i.get('size') or 0, i.get('name') or '', i['id']))
    if not usable:
        return None
    return usable[0]['id'], usable[min(1, len(usable) - 1)]['id']


def from_cloud(os_cloud):
    """(image_ref, image_ref_alt) of the cloud, or None; ImageError when
    glance cannot be read."""
    try:
        from keystoneauth1 import exceptions as ks_exceptions
        import openstack
        from openstack import exceptions
    except ImportError:
        raise ImageError('openstacksdk is not installed: pip install '
                         'python-tempestconf (it brings openstacksdk)')
    # openstacksdk and keystoneauth log their failures on stderr; the
    # command says it once, in its one line.
    logging.disable(logging.CRITICAL)
    try:
        connection = openstack.connect(cloud=os_cloud) if os_cloud else \
            openstack.connect()
        images = [{'id': i.id, 'name': i.name, 'status': i.status,
                   'visibility': i.visibility, 'size': i.size}
                  for i in connection.image.images()]
    except (exceptions.SDKException, ks_exceptions.ClientException) as e:
        raise ImageError('cannot list glance\'s images: %s' % (
            ' '.join(str(e).split())[:200]))
    finally:
        logging.disable(logging.NOTSET)
    return choose(images)
