"""TLS (with certificates made by tests/pki.py), mutual TLS, the bearer token on every
call but health checks, and server reflection in v1 and v1alpha."""
from __future__ import annotations

import os
import subprocess
import sys

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2

from easel.v1 import engine_pb2 as pb
from easel.v1 import engine_pb2_grpc as pb_grpc
from easel.server.auth import server_credentials
from easel.client import EngineClient
from easel.server.service import build_server
from server_helpers import record, settings

pytest.importorskip("cryptography.x509")
from pki import make_pki  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UNAUTH = grpc.StatusCode.UNAUTHENTICATED


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    """A CA, a server certificate for 127.0.0.1 and a client certificate."""
    return make_pki(tmp_path_factory.mktemp("pki"))


def _serve(**kw):
    return build_server(port=0, **kw).start()


def test_tls(pki):
    srv = _serve(credentials=server_credentials(pki["cert"], pki["key"]))
    try:
        with EngineClient(f"127.0.0.1:{srv.port}", ca=pki["ca"], timeout=10) as c:
            assert c.new_game("pig").game == "pig"
        # a client that does not trust the CA, and a plaintext client, are turned away
        with EngineClient(f"127.0.0.1:{srv.port}", ca=pki["other_ca"], timeout=3,
                          retry=False) as c:
            with pytest.raises(grpc.RpcError) as e:
                c.new_game("pig")
            assert e.value.code() == grpc.StatusCode.UNAVAILABLE
        with EngineClient(f"127.0.0.1:{srv.port}", timeout=3, retry=False) as c:
            with pytest.raises(grpc.RpcError) as e:
                c.new_game("pig")
            assert e.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        srv.stop(grace=0)


def test_mutual_tls(pki):
    srv = _serve(credentials=server_credentials(pki["cert"], pki["key"], client_ca=pki["ca"]))
    try:
        with EngineClient(f"127.0.0.1:{srv.port}", ca=pki["ca"], cert=pki["client_cert"],
                          key=pki["client_key"], timeout=10) as c:
            assert c.new_game("pig").game == "pig"
        with EngineClient(f"127.0.0.1:{srv.port}", ca=pki["ca"], timeout=3, retry=False) as c:
            with pytest.raises(grpc.RpcError) as e:
                c.new_game("pig")
            assert e.value.code() == grpc.StatusCode.UNAVAILABLE
    finally:
        srv.stop(grace=0)


def test_bearer_token_on_every_call_but_health(pki):
    srv = _serve(credentials=server_credentials(pki["cert"], pki["key"]), auth_token="s3cret")
    try:
        creds = grpc.ssl_channel_credentials(open(pki["ca"], "rb").read())
        with grpc.secure_channel(f"127.0.0.1:{srv.port}", creds) as ch:
            stub = pb_grpc.EngineStub(ch)
            good = (("authorization", "Bearer s3cret"),)
            for md in [None, (("authorization", "Bearer wrong"),),
                       (("authorization", "s3cret"),), (("authorization", "Bearer s3cret "),)]:
                with pytest.raises(grpc.RpcError) as e:
                    stub.NewGame(pb.NewGameRequest(game="pig"), timeout=5, metadata=md)
                assert e.value.code() == UNAUTH and "Bearer" in e.value.details()
                with pytest.raises(grpc.RpcError) as e:
                    list(stub.Analyze(pb.AnalyzeRequest(position=record("pig"),
                                                        settings=settings(iterations=5)),
                                      timeout=5, metadata=md))
                assert e.value.code() == UNAUTH
            assert stub.NewGame(pb.NewGameRequest(game="pig"), timeout=5,
                                metadata=good).position.game == "pig"
            # grpc's own token credentials send the same header
            token = grpc.composite_channel_credentials(
                creds, grpc.access_token_call_credentials("s3cret"))
            with grpc.secure_channel(f"127.0.0.1:{srv.port}", token) as ch2:
                assert pb_grpc.EngineStub(ch2).Suggest(pb.SuggestRequest(
                    position=record("pig"), settings=settings(iterations=5)),
                    timeout=10).analysis.candidates
            health = health_pb2_grpc.HealthStub(ch)
            r = health.Check(health_pb2.HealthCheckRequest(service="easel.v1.Engine"), timeout=5)
            assert r.status == health_pb2.HealthCheckResponse.SERVING
            # reflection is behind the token too
            refl = ch.stream_stream("/grpc.reflection.v1.ServerReflection/ServerReflectionInfo",
                                    request_serializer=reflection_pb2.ServerReflectionRequest
                                    .SerializeToString,
                                    response_deserializer=reflection_pb2.ServerReflectionResponse
                                    .FromString)
            with pytest.raises(grpc.RpcError) as e:
                list(refl(iter([reflection_pb2.ServerReflectionRequest(list_services="")]),
                          timeout=5))
            assert e.value.code() == UNAUTH
        with EngineClient(f"127.0.0.1:{srv.port}", ca=pki["ca"], token="s3cret") as c:
            assert c.suggest("pig", iterations=5).candidates
    finally:
        srv.stop(grace=0)


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
def test_reflection(channel, version):
    refl = channel.stream_stream(
        f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
        request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
        response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
    answers = list(refl(iter([
        reflection_pb2.ServerReflectionRequest(list_services=""),
        reflection_pb2.ServerReflectionRequest(file_containing_symbol="easel.v1.Engine"),
        reflection_pb2.ServerReflectionRequest(
            file_containing_symbol="grpc.reflection.v1.ServerReflection"),
    ]), timeout=5))
    names = {s.name for s in answers[0].list_services_response.service}
    assert {"easel.v1.Engine", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection"} <= names
    from google.protobuf import descriptor_pb2
    fd = descriptor_pb2.FileDescriptorProto.FromString(
        answers[1].file_descriptor_response.file_descriptor_proto[0])
    assert fd.package == "easel.v1" and "Engine" in [s.name for s in fd.service]
    fd = descriptor_pb2.FileDescriptorProto.FromString(
        answers[2].file_descriptor_response.file_descriptor_proto[0])
    assert fd.package == "grpc.reflection.v1"


def test_serve_with_tls_and_token_from_the_command_line(pki, tmp_path):
    token = tmp_path / "token"
    token.write_text("tok-123\n")
    proc = subprocess.Popen(
        [sys.executable, "-c", "import sys; from easel.server.cli import main; sys.exit(main())",
         "serve", "--port", "0", "--tls-cert", pki["cert"], "--tls-key", pki["key"],
         "--auth-token-file", str(token), "--http", "127.0.0.1:0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = proc.stdout.readline()
        assert line.startswith("listening on"), proc.stderr.read()
        port = int(line.rsplit(":", 1)[1])
        with EngineClient(f"127.0.0.1:{port}", ca=pki["ca"], token="tok-123", timeout=10) as c:
            assert c.new_game("pig").game == "pig"
        with EngineClient(f"127.0.0.1:{port}", ca=pki["ca"], token="nope", timeout=10) as c:
            with pytest.raises(grpc.RpcError) as e:
                c.new_game("pig")
            assert e.value.code() == UNAUTH
        from easel.server.cli import main
        assert main(["suggest", "pig", "--iterations", "20", "--server", f"127.0.0.1:{port}",
                     "--tls-ca", pki["ca"], "--auth-token-file", str(token)]) == 0
        # the HTTP port: the same certificate and the same token
        url = proc.stdout.readline().split()[-1]
        assert url.startswith("https://127.0.0.1:"), url
        import httpx
        import ssl
        with httpx.Client(base_url=url, verify=ssl.create_default_context(cafile=pki["ca"])) as h:
            path = "/easel.v1.Engine/NewGame"
            assert h.post(path, json={"game": "pig"}).status_code == 401
            r = h.post(path, json={"game": "pig"}, headers={"Authorization": "Bearer tok-123"})
            assert r.status_code == 200 and r.json()["position"]["game"] == "pig"
    finally:
        proc.terminate()
        assert proc.wait(timeout=15) == 0
