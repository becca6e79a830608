"""benchmarks/offline_site.py: asv's CDN tags point at local copies taken from npm tarballs.

No npm and no network here: the tarballs are made in the test, laid out as
npm packs them, and put in the script's cache (which it checks before npm).
"""

from __future__ import annotations

import importlib.util
import io
import tarfile
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "offline_site.py"
spec = importlib.util.spec_from_file_location("offline_site", SCRIPT)
offline_site = importlib.util.module_from_spec(spec)
spec.loader.exec_module(offline_site)

# The head of asv 0.6's www/index.html (abridged: the same tag shapes).
PAGE = """<html><head>
<script src="https://code.jquery.com/jquery-3.3.1.min.js" integrity="sha256-x" crossorigin="anonymous" onerror="js_load_failure()"></script>
<script src="https://cdnjs.cloudflare.com/ajax/libs/flot/0.8.3/jquery.flot.min.js" integrity="sha512-y" crossorigin="anonymous" referrerpolicy="no-referrer" onerror="js_load_failure()"></script>
<script language="javascript" type="text/javascript" src="jquery.flot.axislabels.js"></script>
<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/bootstrap@3.1.1/dist/css/bootstrap.min.css" integrity="sha256-z" crossorigin="anonymous">
</head><body><a href="https://github.com/airspeed-velocity/asv/">airspeed velocity</a></body></html>
"""


def _pack(cache: Path, spec: str, files: dict[str, str]) -> None:
    name, version = spec.rsplit("@", 1)
    cache.mkdir(parents=True, exist_ok=True)
    with tarfile.open(cache / f"{name}-{version}.tgz", "w:gz") as tar:
        for member, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(member)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def cache(tmp_path):
    cache = tmp_path / "cache"
    _pack(cache, "jquery@3.3.1", {"package/dist/jquery.min.js": "/* jquery */"})
    _pack(cache, "flot@0.8.3", {"package/jquery.flot.js": "/* flot */"})
    _pack(cache, "bootstrap@3.1.1", {
        "package/dist/css/bootstrap.min.css": "/* css */",
        "package/dist/fonts/glyphicons-halflings-regular.woff": "woff",
        "package/dist/js/bootstrap.min.js": "/* js */"})
    return cache


def test_cdn_tags_point_at_vendored_copies(tmp_path, cache):
    html = tmp_path / "html"
    html.mkdir()
    (html / "index.html").write_text(PAGE, encoding="utf-8")
    assert offline_site.main(["--html", str(html), "--cache", str(cache)]) == 0
    page = (html / "index.html").read_text(encoding="utf-8")
    assert '<script src="vendor/js/jquery.min.js" onerror="js_load_failure()"></script>' in page
    assert '<script src="vendor/js/jquery.flot.js" onerror="js_load_failure()"></script>' in page
    assert '<link rel="stylesheet" href="vendor/css/bootstrap.min.css">' in page
    assert "integrity" not in page and "cdn" not in page and "code.jquery.com" not in page
    assert 'src="jquery.flot.axislabels.js"' in page  # asv's own local file: untouched
    assert 'href="https://github.com/airspeed-velocity/asv/"' in page  # a link, not a load
    assert (html / "vendor/js/jquery.min.js").read_text() == "/* jquery */"
    assert (html / "vendor/js/jquery.flot.js").read_text() == "/* flot */"
    assert (html / "vendor/css/bootstrap.min.css").read_text() == "/* css */"
    # bootstrap.min.css loads ../fonts/glyphicons-*: the fonts come along.
    assert (html / "vendor/fonts/glyphicons-halflings-regular.woff").read_text() == "woff"


def test_an_unknown_cdn_file_stops_it_before_anything_is_written(tmp_path, cache):
    html = tmp_path / "html"
    html.mkdir()
    page = PAGE.replace("</head>", '<script src="https://cdn.example/new-lib.js"></script></head>')
    (html / "index.html").write_text(page, encoding="utf-8")
    with pytest.raises(SystemExit, match=r"new-lib\.js"):
        offline_site.make_offline(html, cache)
    assert (html / "index.html").read_text(encoding="utf-8") == page
    assert not (html / "vendor").exists()
