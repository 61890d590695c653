FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir . && python manage.py compilemessages --ignore=.venv
ENV LIMES_PRODUCTION=1
RUN SECRET_KEY=build ALLOWED_HOSTS=build DATABASE_URL=sqlite:////tmp/build.db REDIS_URL=redis://build \
    python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--lifespan", "off", "--proxy-headers", "--forwarded-allow-ips", "*", "--no-access-log", "--ws-per-message-deflate", "false"]
