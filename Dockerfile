FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends gettext && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir . && python manage.py compilemessages --ignore=.venv
ENV LIMES_PRODUCTION=1
RUN SECRET_KEY=build ALLOWED_HOSTS=build DATABASE_URL=sqlite:////tmp/build.db REDIS_URL=redis://build \
    python manage.py collectstatic --noinput
EXPOSE 8000
CMD ["daphne", "-b", "0.0.0.0", "-p", "8000", "config.asgi:application"]
