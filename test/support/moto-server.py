"""moto's server, with DynamoDB requests answered one at a time.

DynamoDB applies a conditional write atomically: the quota reservation and the
job transitions that `npm run test:aws` checks rely on that. moto's server
answers each request on its own thread and its DynamoDB model checks a
condition and writes without a lock, so 60 concurrent reservations against a
50-page quota let 51 through now and then (and a query can iterate a table
while another thread writes it). Serialising DynamoDB requests gives moto the
atomicity DynamoDB has; S3, SQS (long polls must not block the rest) and the
others stay concurrent.

    python3 test/support/moto-server.py [-H 127.0.0.1] [-p 5000]
"""

import argparse
import threading

from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
from werkzeug.serving import run_simple


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-H", "--host", default="127.0.0.1")
    parser.add_argument("-p", "--port", type=int, default=5000)
    args = parser.parse_args()

    moto = DomainDispatcherApplication(create_backend_app)
    dynamodb = threading.Lock()

    def app(environ, start_response):
        if environ.get("HTTP_X_AMZ_TARGET", "").startswith("DynamoDB_"):
            with dynamodb:
                # The body is produced inside the lock: the write happens while it is built.
                return list(moto(environ, start_response))
        return moto(environ, start_response)

    run_simple(args.host, args.port, app, threaded=True, request_handler=MotoRequestHandler)


if __name__ == "__main__":
    main()
