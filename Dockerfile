# Muster's container image (docs/operating.md). Without a container engine,
# "muster image" writes the same image as an OCI layout.
#
#   docker build --build-arg COMMIT=$(git rev-parse HEAD) -t muster .
#   docker run -d -p 8080:8080 -v muster-data:/data muster
#
# The settings are the environment: every flag of muster serve is MUSTER_
# and its name in capitals (MUSTER_TRUSTED_PROXY, MUSTER_DB, …).

FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG COMMIT=""
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=false \
      -ldflags "-s -w -X github.com/muster-games/muster/internal/version.commit=${COMMIT}" \
      -o /out/muster ./cmd/muster \
 && mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/muster /usr/local/bin/muster
COPY --from=build --chown=65532:65532 /out/data /data
ENV MUSTER_ADDR=:8080 MUSTER_DB=/data/muster.db MUSTER_DATA=/data SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
ARG COMMIT=""
LABEL org.opencontainers.image.title="Muster" org.opencontainers.image.revision="${COMMIT}" \
      org.opencontainers.image.source="https://github.com/muster-games/muster"
USER 65532:65532
WORKDIR /data
VOLUME /data
EXPOSE 8080
# A distroless image has no shell or curl: the binary asks itself.
HEALTHCHECK --interval=30s --timeout=6s CMD ["/usr/local/bin/muster", "healthcheck", "--timeout", "5s"]
ENTRYPOINT ["/usr/local/bin/muster"]
CMD ["serve"]
