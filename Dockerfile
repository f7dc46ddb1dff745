# One server node of cardavia-tarot (see docs/DEPLOY.md).
# Without Redis it keeps its tables in memory; with TAROT_REDIS_URL it shares them.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /src
COPY pyproject.toml README.md MANIFEST.in ./
COPY build_backend build_backend
COPY engine engine
COPY protocol protocol
COPY ai ai
COPY server server
COPY clients clients
COPY cli cli
RUN pip install .

RUN useradd --create-home --uid 10001 tarot
USER tarot
WORKDIR /home/tarot
EXPOSE 8765
# Liveness: the process answers (a Redis outage must not get every node restarted).
# Readiness, for a load balancer or a Kubernetes readinessProbe, is /readyz.
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8765/livez', timeout=2)"]
# SIGTERM drains: clients are told to reconnect elsewhere, leases are handed over.
STOPSIGNAL SIGTERM
CMD ["tarot", "serve", "--host", "0.0.0.0", "--port", "8765", "--log-format", "json"]
