"""numbades.openssl_enc on files: chunked streaming and all-or-nothing output.

Files are made and checked by the real ``openssl enc``; the chunk size is
made small so that a few hundred bytes cross many chunk boundaries.
"""

from __future__ import annotations

import io
import os

import pytest

from numbades import openssl_enc as oe
from numbades.openssl_enc.atomic import atomic_output

from .test_openssl_enc import OPENSSL, openssl, payload

pytestmark = pytest.mark.skipif(OPENSSL is None, reason="the openssl command is not installed")
CHUNK = 64


def leftovers(directory) -> list[str]:
    return sorted(p for p in os.listdir(directory) if p.endswith(".part"))


@pytest.mark.parametrize("overlap", [True, False])
@pytest.mark.parametrize("size", [0, 1, 63, 64, 65, 127, 128, 129, 136, 1000])
def test_files_around_chunk_boundaries(tmp_path, size, overlap):
    data = payload(size, 11)
    plain, enc, dec = tmp_path / "p", tmp_path / "e", tmp_path / "d"
    plain.write_bytes(data)
    oe.encrypt_file(plain, enc, "pw", chunk_size=CHUNK, overlap=overlap)
    assert openssl("-d", "-des-ede3-cbc", "-pass", "pass:pw", data=enc.read_bytes()).stdout == data
    enc.write_bytes(openssl("-e", "-des-ede3-cbc", "-pass", "pass:pw", data=data).stdout)
    stats = oe.decrypt_file(enc, dec, "pw", chunk_size=CHUNK, overlap=overlap)
    assert dec.read_bytes() == data
    assert (stats.bytes_read, stats.bytes_written) == (enc.stat().st_size, size)
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("name", ["des-ede3-ofb", "des-cfb8", "des-ede-cfb", "des-ecb"])
@pytest.mark.parametrize("flags", [(), ("-a",), ("-a", "-A")])
def test_modes_and_base64_in_chunks(tmp_path, name, flags):
    data = payload(333, 2)
    b64 = {"base64": bool(flags), "single_line": "-A" in flags}
    enc = openssl("-e", f"-{name}", "-pass", "pass:pw", *flags, data=data).stdout
    out = io.BytesIO()
    oe.decrypt_file(io.BytesIO(enc), out, "pw", cipher=name, chunk_size=CHUNK, **b64)
    assert out.getvalue() == data
    out = io.BytesIO()
    oe.encrypt_file(io.BytesIO(data), out, "pw", cipher=name, chunk_size=CHUNK, **b64)
    assert openssl("-d", f"-{name}", "-pass", "pass:pw", *flags, data=out.getvalue()).stdout == data


def test_progress_reports_input_bytes(tmp_path):
    src = tmp_path / "p"
    src.write_bytes(payload(1000))
    seen: list[int] = []
    oe.encrypt_file(src, tmp_path / "e", "pw", chunk_size=CHUNK, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1000 and len(seen) == 16


def test_output_may_be_the_input(tmp_path):
    data = payload(500)
    path = tmp_path / "f"
    path.write_bytes(data)
    oe.encrypt_file(path, path, "pw", chunk_size=CHUNK)
    assert openssl("-d", "-des-ede3-cbc", "-pass", "pass:pw", data=path.read_bytes()).stdout == data
    oe.decrypt_file(path, path, "pw", chunk_size=CHUNK)
    assert path.read_bytes() == data
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("damage", ["wrong password", "truncated", "last byte", "no header"])
def test_failed_decryption_leaves_target_untouched(tmp_path, damage):
    data = payload(700)
    enc = openssl("-e", "-des-ede3-cbc", "-pass", "pass:pw", data=data).stdout
    password = "pw"
    if damage == "wrong password":
        password = "nope"
    elif damage == "truncated":
        enc = enc[:-5]
    elif damage == "last byte":
        enc = enc[:-1] + bytes([enc[-1] ^ 1])
    else:
        enc = enc[16:]
    src, dst = tmp_path / "e", tmp_path / "target"
    src.write_bytes(enc)
    dst.write_bytes(b"precious")
    os.chmod(dst, 0o640)
    with pytest.raises(oe.EncError):
        oe.decrypt_file(src, dst, password, chunk_size=CHUNK)
    assert dst.read_bytes() == b"precious" and leftovers(tmp_path) == []
    proc = openssl("-d", "-des-ede3-cbc", "-pass", f"pass:{password}", data=enc, check=False)
    assert proc.returncode != 0  # openssl refuses it too


def test_new_file_mode_and_existing_mode_kept(tmp_path):
    src, new, old = tmp_path / "p", tmp_path / "new", tmp_path / "old"
    src.write_bytes(b"x")
    old.write_bytes(b"")
    os.chmod(old, 0o600)
    umask = os.umask(0o022)
    try:
        oe.encrypt_file(src, new, "pw")
        oe.encrypt_file(src, old, "pw")
    finally:
        os.umask(umask)
    assert new.stat().st_mode & 0o777 == 0o644
    assert old.stat().st_mode & 0o777 == 0o600


def test_atomic_output_on_error_and_through_symlink(tmp_path):
    target = tmp_path / "t"
    target.write_bytes(b"old")
    with pytest.raises(OSError, match="disk full"), atomic_output(target) as f:
        f.write(b"new, half written")
        raise OSError(28, "disk full")
    assert target.read_bytes() == b"old" and leftovers(tmp_path) == []
    link = tmp_path / "link"
    link.symlink_to(target)
    with atomic_output(link) as f:
        f.write(b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_special_target_written_directly(tmp_path):
    src = tmp_path / "p"
    src.write_bytes(b"abc")
    oe.encrypt_file(src, os.devnull, "pw")  # a character device: no rename possible
    assert leftovers(tmp_path) == []
