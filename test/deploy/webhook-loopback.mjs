// Preloaded (--import) into the functions' runtimes by the deploy suite only,
// so webhook registration and delivery can be exercised without any request
// leaving this machine. The deployed code accepts https:// to global unicast
// addresses only, so one made-up name, receiver.docex-deploy.test, resolves to
// a public address (the address rules run on that answer, as in AWS), and
// every TLS connection to that name is then connected to the suite's HTTPS
// receiver on loopback instead; its certificate is trusted through
// NODE_EXTRA_CA_CERTS. Any other name resolves and connects as usual, and
// without this file the name does not resolve at all (.test is reserved).

import dns from 'node:dns';
import tls from 'node:tls';

const NAME = 'receiver.docex-deploy.test';
const PUBLIC = '93.184.215.14';
const port = Number(process.env.DOCEX_HARNESS_RECEIVER_PORT);

const lookup = dns.promises.lookup;
dns.promises.lookup = (hostname, options) => {
  if (hostname !== NAME) return lookup(hostname, options);
  const answer = { address: PUBLIC, family: 4 };
  const all = typeof options === 'object' && options?.all;
  return Promise.resolve(all ? [answer] : answer);
};

const connect = tls.connect;
tls.connect = function (...args) {
  const options = args.find((a) => a && typeof a === 'object');
  if (options && (options.servername === NAME || options.host === NAME)) {
    const checked = options.lookup ?? dns.lookup;
    options.port = port;
    // The deployed lookup still runs (and may refuse); only the address connected to is loopback.
    options.lookup = (hostname, lookupOptions, callback) =>
      checked(hostname, lookupOptions, (error) => {
        if (error) return callback(error);
        if (lookupOptions?.all) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
        callback(null, '127.0.0.1', 4);
      });
    options.servername = NAME;
  }
  return connect.apply(this, args);
};
