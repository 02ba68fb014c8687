# One image for both roles: QR_ROLE=engine or QR_ROLE=site picks one (README, "Deploying").
# Stage 1 installs every package and builds; stage 2 keeps the build and the runtime packages only.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    QR_DATA_DIR=/data
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The data directory (PGlite, generated secrets, the outbox) is a volume owned by the unprivileged user.
RUN mkdir -m 0700 /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000 3001
CMD ["node", "dist/src/main.js"]
