# The kcompat dashboard (Streamlit) for a team. Build and run:
#   docker build -t kcompat .
#   docker run --rm -p 8501:8501 --read-only --tmpfs /tmp kcompat
# The image also holds the CLI: docker run --rm kcompat kcompat gates --binary 1.36 --emulated 1.33
#
# The base image is named by tag only: pin it by digest where you build, for reproducible images,
#   FROM python:3.12-slim@sha256:<digest>
# with the digest `docker buildx imagetools inspect python:3.12-slim` prints (not looked up here:
# the machine this was written on has no registry access for container images).
FROM python:3.12-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    # Streamlit writes under $HOME (~/.streamlit: machine id, credentials prompt state); with a
    # read-only root filesystem the only writable place is the /tmp volume, so HOME lives there.
    HOME=/tmp \
    # where browsers should reach the app (printed at start; Streamlit looks nothing up)
    SERVER_ADDRESS=localhost \
    # multi-megabyte inputs allocated by mmap and handed back when freed, in at most two malloc
    # arenas (dashboard/server/memory.py MALLOC_ENV; docs/hosting.md has the figures)
    MALLOC_MMAP_THRESHOLD_=131072 \
    MALLOC_ARENA_MAX=2

WORKDIR /app
# Dependencies first, every one pinned by version and hash (requirements.lock: the [project]
# dependencies of pyproject.toml and setuptools); pip refuses anything else. This layer is rebuilt
# only when the lock changes.
COPY requirements.lock ./
RUN pip install --require-hashes --no-deps --only-binary :all: -r requirements.lock
COPY pyproject.toml ./

COPY .streamlit .streamlit
COPY kcompat kcompat
COPY dashboard dashboard
COPY data data
# The package itself (the kcompat and kubectl-kcompat commands); pip puts data/ and the Streamlit
# settings under /usr/local/share/kcompat, where kcompat finds them.
# Bytecode compiled at build time: the root filesystem is read-only when running.
# No build isolation: the locked setuptools builds it (nothing unpinned is downloaded).
RUN pip install --no-deps --no-build-isolation . && python -m compileall -q kcompat dashboard \
    && rm -rf build *.egg-info \
    && groupadd --gid 10001 kcompat \
    && useradd --uid 10001 --gid 10001 --no-create-home --home-dir /tmp --shell /usr/sbin/nologin kcompat

# Numeric user, so Kubernetes' runAsNonRoot can verify it without reading /etc/passwd.
USER 10001:10001
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status == 200 else 1)"

# kcompat serve runs Streamlit with the project's .streamlit/config.toml (headless, XSRF on, uploads
# capped, no telemetry) and becomes the server process; SERVER_ADDRESS is read from the environment.
CMD ["kcompat", "serve", "--address", "0.0.0.0", "--port", "8501"]
