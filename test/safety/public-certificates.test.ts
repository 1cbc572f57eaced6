/**
 * The system's stores of public certificates (`/etc/ssl/certs`, `/etc/pki/tls/certs`, the CA
 * bundles' folders) hold `.pem` files that are public by design: reading one is everyday
 * (`openssl x509 -in …`), where a `.pem` elsewhere may be a private key. A key's other names
 * (`*.key`, `*.p12`) stay denied there, and the private folders beside them stay denied.
 */
import { testHoles } from './context.ts';

testHoles({
  "a public certificate store's .pem files": [
    ['cat /etc/ssl/certs/ssl-cert-snakeoil.pem', 'cat /etc/ssl/private/ssl-cert-snakeoil.pem'],
    ['openssl x509 -in /etc/pki/tls/certs/localhost.pem -noout -subject', 'openssl x509 -in /etc/pki/tls/private/localhost.pem -noout -subject'],
    ['ls /etc/ssl/certs/*.pem | wc -l', 'cat /etc/ssl/certs/../private/*.pem'],
    ['openssl x509 -in /usr/local/share/ca-certificates/corp-root.pem -noout -dates', 'cat /etc/ssl/certs/server.key'],
    ['grep -l ISRG /etc/ssl/certs/*.pem', 'cat ~/certs/server.pem'],
  ],
});
