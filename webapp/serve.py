"""Running the app at the table: cheroot server, LAN address, terminal QR code, HTTPS.

cheroot is a production WSGI server in pure Python (runs on Windows too) that serves
TLS with the standard library's ssl module, which phone browsers need before they
allow live camera access.

A thread serves one request at a time, so the server bounds how long a request may
take to arrive (`HEADERS_S` for its request line and headers, then the body at no
less than `MIN_BODY_RATE`): a client that trickles bytes loses its connection
instead of holding a thread. Live-update streams hold a thread each for a minute;
`THREADS` leaves room for the normal requests beside the most streams `webapp.live`
allows.

`serve` runs one process; `serve_workers` runs several on one port (PostgreSQL only:
they share nothing but the database and the photo folder, see `webapp.workers`).
"""

from __future__ import annotations

import datetime as dt
import ipaddress
import select
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from cheroot import makefile as cheroot_makefile
from cheroot import server as cheroot_server
from cheroot import wsgi

from dicecam.webapp.live import MAX_STREAMS

THREADS = MAX_STREAMS + 32
LISTEN_BACKLOG = 128
SOCKET_TIMEOUT_S = 10
HEADERS_S = 10.0
BODY_S = 30.0
MIN_BODY_RATE = 64 * 1024  # bytes per second a body must at least arrive with


class _DeadlineSocket:
    """A connected socket whose reads fail once the current request's deadline passes,
    however slowly the bytes trickle in."""

    def __init__(self, sock: Any, timeout: float) -> None:
        self._sock = sock
        self._timeout = timeout
        self.deadline: float | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def _arm(self) -> None:
        if self.deadline is not None:
            left = self.deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("timed out")
            self._sock.settimeout(min(left, self._timeout))

    def recv_into(self, *args: Any) -> int:
        self._arm()
        return self._sock.recv_into(*args)

    def recv(self, *args: Any) -> bytes:
        self._arm()
        return self._sock.recv(*args)


class _DeadlineRequest(cheroot_server.HTTPRequest):
    """Once the headers are in, the body gets its own deadline from its length."""

    def parse_request(self) -> None:
        super().parse_request()
        sock = self.conn.socket
        if self.ready and isinstance(sock, _DeadlineSocket):
            length = int(self.inheaders.get(b"Content-Length", b"0") or 0) if self.inheaders else 0
            sock.deadline = time.monotonic() + BODY_S + max(length, 0) / MIN_BODY_RATE


class _DeadlineConnection(cheroot_server.HTTPConnection):
    RequestHandlerClass = _DeadlineRequest

    def __init__(self, server: Any, sock: Any, makefile: Any = cheroot_makefile.MakeFile) -> None:
        super().__init__(server, _DeadlineSocket(sock, server.timeout), makefile)

    def communicate(self) -> bool:
        self.socket.deadline = time.monotonic() + HEADERS_S
        try:
            return super().communicate()
        finally:
            self.socket.deadline = None


def lan_address() -> str:
    """This machine's address on the local network (the one phones can reach)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        # A UDP "connect" sends nothing; it only picks the outgoing interface.
        s.connect(("192.0.2.1", 80))
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def public_url(host: str, port: int, https: bool) -> str:
    """The address to print: the LAN address when listening on all interfaces."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"{'https' if https else 'http'}://{shown}:{port}/"


def qr_lines(text: str, *, quiet: int = 2) -> list[str]:
    """`text` as a QR code drawn with Unicode half blocks, two module rows per line.

    Dark modules are drawn as blocks on a light background; callers add colours so
    that it scans on dark terminals too.
    """
    from dicecam.webapp.qr import modules

    dark = modules(text)
    width = len(dark[0]) + 2 * quiet
    blank = [False] * width
    grid = [blank] * quiet + [[False] * quiet + row + [False] * quiet for row in dark] + [blank] * quiet
    if len(grid) % 2:
        grid.append(blank)
    chars = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    return ["".join(chars[(top, bottom)] for top, bottom in zip(grid[i], grid[i + 1])) for i in range(0, len(grid), 2)]


def print_banner(
    url: str, out: TextIO = sys.stdout, *, https: bool = False, data_dir: str = "", database: str = "",
    workers: int = 1,
) -> None:
    """The address and its QR code, for the players to scan."""
    colour = out.isatty()
    out.write("\n  dicecam läuft / is running\n\n")
    # Black on white whatever the terminal's colours, so phone cameras can read it.
    out.writelines(f"  \x1b[30;47m{line}\x1b[0m\n" if colour else f"  {line}\n" for line in qr_lines(url))
    out.write(f"\n  Am Handy öffnen / open on a phone:  {url}\n")
    if https:
        out.write("  (selbst signiertes Zertifikat: im Browser einmal bestätigen / "
                  "self-signed certificate: accept it once in the browser)\n")
    if data_dir:
        out.write(f"  Daten / data: {data_dir}\n")
    if database:
        out.write(f"  Datenbank / database: {database}\n")
    if workers > 1:
        out.write(f"  {workers} Prozesse / worker processes\n")
    out.write("  Beenden / stop: Ctrl+C\n\n")
    out.flush()


def ensure_certificate(folder: Path, hosts: list[str]) -> tuple[Path, Path]:
    """A self-signed certificate for `hosts` in `folder`, made once and then reused.

    It is made again when a host (for example a new LAN address) is missing from it
    or it is about to expire.
    """
    # Lazy: only `serve --https` needs cryptography.
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder.mkdir(parents=True, exist_ok=True)
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    wanted = sorted(set(hosts) | {"localhost", "127.0.0.1"})
    now = dt.datetime.now(dt.UTC)
    if cert_path.exists() and key_path.exists():
        cert = x509.load_pem_x509_certificate(cert_path.read_bytes())
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        have = {str(v) for v in san.get_values_for_type(x509.IPAddress)} | set(san.get_values_for_type(x509.DNSName))
        if set(wanted) <= have and cert.not_valid_after_utc - now > dt.timedelta(days=7):
            return cert_path, key_path

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "dicecam"),
                      x509.NameAttribute(NameOID.ORGANIZATION_NAME, "dicecam (self-signed)")])
    alt: list[x509.GeneralName] = []
    for h in wanted:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(h)))
        except ValueError:
            alt.append(x509.DNSName(h))
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(minutes=5))
        # Browsers refuse leaf certificates valid for more than 825 days.
        .not_valid_after(now + dt.timedelta(days=825))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(key, hashes.SHA256())
    )
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    key_path.chmod(0o600)
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return cert_path, key_path


def _sent_something(sock: Any) -> bool:
    """Whether the client's socket has anything to read: while a response streams, that
    is only ever its end (EOF, a reset, a TLS close), since a browser sends nothing more."""
    try:
        readable, _, _ = select.select([sock], [], [], 0)
    except (OSError, ValueError):
        return True
    return bool(readable)


class _Gateway(wsgi.Gateway_10):
    """Lets a long response (a live stream) ask whether its client is still there."""

    def get_environ(self) -> Any:
        env = super().get_environ()
        sock = self.req.conn.socket
        env["dicecam.client_gone"] = lambda: _sent_something(sock)
        return env


class _Server(wsgi.Server):
    """Stopping ends the live streams first, so their threads are free to finish."""

    def stop(self) -> None:
        notifier = getattr(self.wsgi_app, "extensions", {}).get("dicecam.notifier")
        if notifier is not None:
            notifier.close()
        super().stop()


def make_server(
    app, host: str, port: int, *, certificate: tuple[Path, Path] | None = None, threads: int = THREADS,
    reuse_port: bool = False,
) -> wsgi.Server:
    """A cheroot server for `app`, bound when `prepare()` (or `start()`) is called.

    Port 0 picks a free port; read it from `server.bind_addr` after `prepare()`.
    `reuse_port` lets worker processes listen on the same port (SO_REUSEPORT).
    """
    server = _Server(
        (host, port), app, numthreads=threads, server_name="dicecam", timeout=SOCKET_TIMEOUT_S,
        # The listen backlog: cheroot's 5 drops connections when a table's phones all ask at
        # once, and a dropped SYN costs the phone a second or more before it tries again.
        request_queue_size=LISTEN_BACKLOG,
        reuse_port=reuse_port,
    )
    server.ConnectionClass = _DeadlineConnection
    server.gateway = _Gateway
    if certificate is not None:
        from cheroot.ssl.builtin import BuiltinSSLAdapter

        server.ssl_adapter = BuiltinSSLAdapter(str(certificate[0]), str(certificate[1]))
    return server


def return_freed_memory() -> bool:
    """Ask glibc to give large freed blocks back to the system (Linux only).

    By default glibc keeps up to 32 MB blocks and a heap arena per busy thread after
    they are freed, so a server that decoded a few photos on many threads stays at its
    peak memory. Decoded photos are big arrays: with a fixed 1 MB mmap threshold they
    are mapped and unmapped, and two arenas are plenty for a server whose heavy work
    runs in at most `PHOTO_SLOTS` threads at once.
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        m_mmap_threshold, m_arena_max = -3, -8
        return bool(libc.mallopt(m_mmap_threshold, 1024 * 1024)) and bool(libc.mallopt(m_arena_max, 2))
    except (OSError, AttributeError):
        return False  # not glibc (musl, macOS): nothing to tune


def announce(app, host: str, url: str) -> None:
    """Tell the app the address it is announced at: QR codes use it, and a host name
    given to `--host` is one the app answers to."""
    app.config["PUBLIC_URL"] = url
    allowed = app.config["ALLOWED_HOSTS"]
    name = host.strip("[]").lower()
    if name and name not in allowed:
        allowed.append(name)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _certificate(data_dir: str, host: str) -> tuple[Path, Path]:
    hosts = [lan_address()] + ([host] if host not in ("0.0.0.0", "::", "") else [])
    return ensure_certificate(Path(data_dir) / "tls", hosts)


def _database(app) -> str:
    """The banner's database line: only when it is not the data folder's SQLite file."""
    backend = app.extensions["dicecam.backend"]
    return backend.where() if backend.kind != "sqlite" else ""


def serve(app, host: str = "0.0.0.0", port: int = 8000, *, https: bool = False, out: TextIO = sys.stdout) -> None:
    """Serve until Ctrl+C, after printing the address and its QR code."""
    from dicecam.webapp import shutdown

    return_freed_memory()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)  # systemd's stop: as graceful as Ctrl+C
    certificate = _certificate(app.config["DATA_DIR"], host) if https else None
    server = make_server(app, host, port, certificate=certificate)
    server.prepare()  # bind now, so a taken port fails before the banner
    bound_port = server.bind_addr[1]
    url = public_url(host, bound_port, https)
    announce(app, host, url)
    print_banner(url, out, https=https, data_dir=app.config["DATA_DIR"], database=_database(app))
    try:
        server.serve()
    finally:
        server.stop()
        shutdown(app)


def serve_workers(
    app, config: dict | None, host: str = "0.0.0.0", port: int = 8000, *, workers: int, https: bool = False,
    out: TextIO = sys.stdout,
) -> int:
    """Serve with `workers` processes on one port until Ctrl+C or SIGTERM; the exit code.

    `app` was built here from `config` to check the data folder and the database (and to
    migrate it, once); it is shut down before the fork, and each worker builds its own
    from `config`: connections and threads are never carried across a fork.
    """
    from dicecam.webapp import create_app, shutdown
    from dicecam.webapp.workers import reserve_port, run_workers

    return_freed_memory()
    data_dir, database = app.config["DATA_DIR"], _database(app)
    shutdown(app)
    certificate = _certificate(data_dir, host) if https else None
    reserved = reserve_port(host, port)  # a taken port fails here, before any worker starts
    bound_port = reserved.getsockname()[1]
    url = public_url(host, bound_port, https)

    def start(index: int, ready) -> int:
        worker_app = create_app(config)
        announce(worker_app, host, url)
        server = make_server(worker_app, host, bound_port, certificate=certificate, reuse_port=True)
        try:
            server.prepare()
            ready()
            server.serve()
        finally:
            server.stop()
            shutdown(worker_app)
        return 0

    def banner() -> None:
        print_banner(url, out, https=https, data_dir=data_dir, database=database, workers=workers)

    try:
        return run_workers(workers, start, on_ready=banner)
    finally:
        reserved.close()
