"""Make the site `asv publish` wrote work without a network: local copies of its CDN scripts.

    asv publish && python benchmarks/offline_site.py        # rewrites .asv/html/index.html
    python benchmarks/offline_site.py --html DIR --cache DIR

asv's ``index.html`` loads jQuery, flot (and plugins), stupidtable, blueimp-md5
and Bootstrap from public CDNs; offline the page shows only "external
(JavaScript) dependencies failed to load". This fetches the same libraries
(the same versions; stupidtable as stupid-table-plugin 1.1.3, the only one on
npm) as npm package tarballs with ``npm pack`` (cached in ``--cache``, so a
second run needs no network), copies the files into ``HTML/vendor/``, and
points the page's ``<script>``/``<link>`` tags at them (dropping their
``integrity`` hashes, which are for the CDNs' minified builds). A CDN URL it
does not know (a newer asv) stops it with an error instead of leaving a page
that half works.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: CDN file name -> (npm package spec, file inside its tarball, local path under vendor/).
VENDOR = {
    "jquery-3.3.1.min.js": ("jquery@3.3.1", "package/dist/jquery.min.js", "js/jquery.min.js"),
    "jquery.flot.min.js": ("flot@0.8.3", "package/jquery.flot.js", "js/jquery.flot.js"),
    "jquery.flot.time.min.js": ("flot@0.8.3", "package/jquery.flot.time.js",
                                "js/jquery.flot.time.js"),
    "jquery.flot.selection.min.js": ("flot@0.8.3", "package/jquery.flot.selection.js",
                                     "js/jquery.flot.selection.js"),
    "jquery.flot.categories.min.js": ("flot@0.8.3", "package/jquery.flot.categories.js",
                                      "js/jquery.flot.categories.js"),
    "jquery.flot.orderBars.js": ("flot-orderbars@1.0.0", "package/js/jquery.flot.orderBars.js",
                                 "js/jquery.flot.orderBars.js"),
    "stupidtable.min.js": ("stupid-table-plugin@1.1.3", "package/stupidtable.min.js",
                           "js/stupidtable.min.js"),
    "md5.min.js": ("blueimp-md5@2.19.0", "package/js/md5.min.js", "js/md5.min.js"),
    "bootstrap.min.js": ("bootstrap@3.1.1", "package/dist/js/bootstrap.min.js",
                         "js/bootstrap.min.js"),
    "bootstrap.min.css": ("bootstrap@3.1.1", "package/dist/css/bootstrap.min.css",
                          "css/bootstrap.min.css"),
}
#: Files a stylesheet refers to (bootstrap.min.css loads ../fonts/glyphicons-*).
EXTRA = {"bootstrap@3.1.1": ("package/dist/fonts/", "fonts/")}

TAG = re.compile(r"<(script|link)\b[^>]*?\b(?:src|href)=\"(https?://[^\"]+)\"[^>]*>")
DROP = re.compile(r"\s+(integrity|crossorigin|referrerpolicy)=\"[^\"]*\"")


def tarball(spec: str, cache: Path) -> Path:
    """The npm tarball of ``spec`` (name@version) in ``cache``, fetched with ``npm pack`` if absent."""
    name, version = spec.rsplit("@", 1)
    path = cache / f"{name}-{version}.tgz"
    if not path.is_file():
        if shutil.which("npm") is None:
            raise SystemExit(f"offline_site: {path} is not cached and npm is not installed")
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run(["npm", "pack", "--silent", spec, "--pack-destination", str(cache)],
                       check=True, stdout=subprocess.DEVNULL)
    return path


def _extract(archive: Path, member_prefix: str, dest: Path) -> int:
    """Copy the archive's files whose names start with ``member_prefix`` to ``dest``
    (a file, or a directory when the prefix ends in ``/``); returns how many."""
    count = 0
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if not member.isfile() or not member.name.startswith(member_prefix):
                continue
            target = dest / member.name[len(member_prefix):] if member_prefix.endswith("/") \
                else dest
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(tar.extractfile(member).read())
            count += 1
    if not count:
        raise SystemExit(f"offline_site: {archive.name} has no {member_prefix}")
    return count


def make_offline(html_dir: Path, cache: Path) -> list[str]:
    """Vendor the CDN files of ``html_dir/index.html`` and rewrite it; returns the URLs replaced."""
    index = html_dir / "index.html"
    page = index.read_text(encoding="utf-8")
    urls = [m.group(2) for m in TAG.finditer(page)]
    unknown = [u for u in urls if u.rsplit("/", 1)[-1] not in VENDOR]
    if unknown:
        raise SystemExit("offline_site: no local copy known for " + ", ".join(unknown))
    vendor = html_dir / "vendor"
    for url in urls:
        spec, member, local = VENDOR[url.rsplit("/", 1)[-1]]
        _extract(tarball(spec, cache), member, vendor / local)
        if spec in EXTRA:
            prefix, subdir = EXTRA[spec]
            _extract(tarball(spec, cache), prefix, vendor / subdir)

    def local_tag(match: re.Match) -> str:
        url = match.group(2)
        tag = match.group(0).replace(url, "vendor/" + VENDOR[url.rsplit("/", 1)[-1]][2])
        return DROP.sub("", tag)

    index.write_text(TAG.sub(local_tag, page), encoding="utf-8")
    return urls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", type=Path, default=ROOT / ".asv" / "html",
                        help="the directory asv publish wrote (default: %(default)s)")
    parser.add_argument("--cache", type=Path, default=ROOT / ".asv" / "vendor-cache",
                        help="where npm tarballs are kept between runs (default: %(default)s)")
    args = parser.parse_args(argv)
    if not (args.html / "index.html").is_file():
        parser.error(f"no {args.html / 'index.html'}: run `asv publish` first")
    urls = make_offline(args.html, args.cache)
    print(f"offline_site: {len(urls)} CDN files now load from {args.html / 'vendor'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
