"""Static files as production serves them: minified, then hashed and compressed (whitenoise).

``collectstatic`` copies ``static/`` into ``STATIC_ROOT`` and then calls ``post_process`` with
every file it copied. Before whitenoise hashes and compresses them, every stylesheet and script is
minified in place in ``STATIC_ROOT`` (comments and spaces out; rcssmin and rjsmin), and
``post_process`` is given that copy, so the hashed name is the minified file's and the ``.gz``
beside it is the minified file compressed. The files in ``static/`` keep their comments. Files
already minified by their authors (``*.min.js``: the htmx a page loads) are left as they are.
"""

from __future__ import annotations

import os

import rcssmin
import rjsmin
from whitenoise.storage import CompressedManifestStaticFilesStorage

MINIFIERS = {".css": rcssmin.cssmin, ".js": rjsmin.jsmin}


def minifier(name: str):
    """The minifier for a static file's name, or None (not CSS or JS, or minified already)."""
    if ".min." in name.rsplit("/", 1)[-1]:
        return None
    return next((fn for ext, fn in MINIFIERS.items() if name.endswith(ext)), None)


class MinifiedStaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Whitenoise's compressed manifest storage, given minified CSS and JS."""

    def post_process(self, paths, dry_run=False, **options):
        if not dry_run:
            paths = dict(paths)
            for name in paths:
                minify = minifier(name)
                target = self.path(name)
                if minify is None or os.path.islink(target):  # collectstatic --link: the source
                    continue
                with open(target, encoding="utf-8") as source:
                    text = source.read()
                with open(target, "w", encoding="utf-8") as minified:
                    minified.write(minify(text))
                paths[name] = (self, name)  # hash and compress the minified copy
        yield from super().post_process(paths, dry_run=dry_run, **options)
