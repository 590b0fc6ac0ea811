"""Certificates made for the TLS tests: a CA, a server certificate for
localhost and 127.0.0.1, a client certificate, and a CA that signed none of
them. Needs the `cryptography` package (the test extra)."""
from __future__ import annotations

import datetime
import ipaddress

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _name(cn):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def _cert(subject, issuer_name, issuer_key, key, ca=False, server=False):
    now = datetime.datetime.now(datetime.timezone.utc)
    b = (x509.CertificateBuilder().subject_name(_name(subject)).issuer_name(issuer_name)
         .public_key(key.public_key()).serial_number(x509.random_serial_number())
         .not_valid_before(now - datetime.timedelta(minutes=5))
         .not_valid_after(now + datetime.timedelta(days=1))
         .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if server:
        b = b.add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False)
    return b.sign(issuer_key, hashes.SHA256())


def _write(path, obj):
    if hasattr(obj, "private_bytes"):
        data = obj.private_bytes(serialization.Encoding.PEM,
                                 serialization.PrivateFormat.PKCS8,
                                 serialization.NoEncryption())
    else:
        data = obj.public_bytes(serialization.Encoding.PEM)
    path.write_bytes(data)
    return str(path)


def make_pki(d) -> dict:
    """Writes the PEM files into the folder `d` (a pathlib.Path); returns
    their paths: ca, cert, key (the server's), client_cert, client_key,
    other_ca, and dir."""
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = _cert("easel test CA", _name("easel test CA"), ca_key, ca_key, ca=True)
    srv_key = ec.generate_private_key(ec.SECP256R1())
    srv = _cert("localhost", ca.subject, ca_key, srv_key, server=True)
    cli_key = ec.generate_private_key(ec.SECP256R1())
    cli = _cert("a client", ca.subject, ca_key, cli_key)
    other_key = ec.generate_private_key(ec.SECP256R1())
    other = _cert("another CA", _name("another CA"), other_key, other_key, ca=True)
    return {"ca": _write(d / "ca.pem", ca), "cert": _write(d / "server.pem", srv),
            "key": _write(d / "server.key", srv_key),
            "client_cert": _write(d / "client.pem", cli),
            "client_key": _write(d / "client.key", cli_key),
            "other_ca": _write(d / "other.pem", other), "dir": d}
