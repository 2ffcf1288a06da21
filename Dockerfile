# syntax=docker/dockerfile:1
# Ferry's image for those with Docker. `make image` builds the same image
# without a container engine (scripts/mkimage; its test checks that this
# file's user, entrypoint, command, ports and environment match):
# FROM scratch with the static binary (portal embedded), CA certificates
# and the non-root account 65532.
#
#   docker build -t ferry --build-arg VERSION=$(git describe --tags --always) \
#     --build-arg REVISION=$(git rev-parse HEAD) .
ARG GO_VERSION=1.26.8
ARG NODE_VERSION=20

# The portal, against the checked-in API types (frontend/src/openapi.json).
FROM node:${NODE_VERSION}-bookworm-slim AS portal
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY frontend/ ./
RUN npm run --silent build

FROM golang:${GO_VERSION}-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
COPY --from=portal /src/frontend/dist/app frontend/dist/app
ARG VERSION=dev
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath \
      -ldflags "-s -w -X github.com/ferry-dev/ferry/app.Version=${VERSION}" -o /out/ferry ./app/cmd/ferry
# The base files, laid out as scripts/mkimage lays them out.
RUN mkdir -p /rootfs/etc/ssl/certs /rootfs/tmp /rootfs/home/nonroot \
 && printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' >/rootfs/etc/passwd \
 && printf 'root:x:0:\nnonroot:x:65532:\n' >/rootfs/etc/group \
 && cp /etc/ssl/certs/ca-certificates.crt /rootfs/etc/ssl/certs/ \
 && chmod 1777 /rootfs/tmp \
 && chown 65532:65532 /rootfs/home/nonroot && chmod 700 /rootfs/home/nonroot

FROM scratch
ARG VERSION=dev
ARG REVISION=unknown
ARG SOURCE=https://github.com/ferry-dev/ferry
COPY --from=build /rootfs/ /
COPY --from=build /out/ferry /usr/local/bin/ferry
ENV PATH=/usr/local/bin:/usr/bin:/bin
ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt
LABEL org.opencontainers.image.title="Ferry" \
      org.opencontainers.image.description="Multi-tenant webhooks as a service" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}"
USER 65532:65532
WORKDIR /
EXPOSE 8080
ENTRYPOINT ["ferry"]
CMD ["serve"]
