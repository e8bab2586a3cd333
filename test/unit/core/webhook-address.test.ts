import { describe, expect, it } from 'vitest';
import { addressRefusal, hostRefusal } from '../../../lambdas/core/webhook-address.ts';

const cloud = { allowLoopback: false };
const local = { allowLoopback: true };

describe('which addresses a delivery may connect to', () => {
  it.each([
    // address, refused in the cloud because…, refused on the local server because…
    ['93.184.215.14', null, null],
    ['8.8.8.8', null, null],
    ['2606:4700:4700::1111', null, null],
    ['127.0.0.1', /loopback/, null],
    ['127.200.0.9', /loopback/, null],
    ['::1', /loopback/, null],
    ['::ffff:127.0.0.1', /loopback/, null],
    ['10.0.0.5', /private/, /private/],
    ['172.16.0.1', /private/, /private/],
    ['172.31.255.255', /private/, /private/],
    ['192.168.1.1', /private/, /private/],
    ['100.64.0.1', /carrier-grade NAT/, /carrier-grade NAT/],
    ['100.127.255.254', /carrier-grade NAT/, /carrier-grade NAT/],
    ['169.254.169.254', /link-local.*metadata/, /link-local/],
    ['169.254.170.2', /link-local/, /link-local/],
    ['0.0.0.0', /unspecified/, /unspecified/],
    ['224.0.0.1', /multicast/, /multicast/],
    ['255.255.255.255', /reserved/, /reserved/],
    ['::', /unspecified/, /unspecified/],
    ['fe80::1', /link-local/, /link-local/],
    ['fd00:ec2::254', /unique-local.*metadata/, /unique-local/],
    ['fc00::1', /unique-local/, /unique-local/],
    ['ff02::1', /multicast/, /multicast/],
    ['::ffff:169.254.169.254', /link-local/, /link-local/],
    ['::ffff:a9fe:a9fe', /link-local/, /link-local/],
    ['::ffff:10.1.2.3', /private/, /private/],
    ['::ffff:100.64.1.1', /carrier-grade NAT/, /carrier-grade NAT/],
    ['64:ff9b::a9fe:a9fe', /link-local/, /link-local/],
    ['2002:a9fe:a9fe::1', /link-local/, /link-local/],
    // Issue #18 item 5: anything that is not global unicast is refused, whatever IPv4 address it embeds.
    ['::ffff:93.184.215.14', /IPv4-mapped.*embeds 93\.184\.215\.14/, /IPv4-mapped/],
    ['::ffff:0:a00:1', /SIIT.*10\.0\.0\.1, a private/, /SIIT/],
    ['::a9fe:a9fe', /IPv4-compatible.*169\.254\.169\.254, a link-local/, /IPv4-compatible/],
    ['64:ff9b:1::a9fe:a9fe', /NAT64.*169\.254\.169\.254/, /NAT64/],
    ['64:ff9b::808:808', /NAT64.*8\.8\.8\.8/, /NAT64/],
    ['2001:0:4136:e378:8000:63bf:f5ff:fffe', /Teredo.*10\.0\.0\.1, a private/, /Teredo/],
    ['2002:c0a8:0101::1', /6to4.*192\.168\.1\.1, a private/, /6to4/],
    ['2002:808:808::1', /6to4.*8\.8\.8\.8/, /6to4/],
    ['2001:db8::1', /reserved or documentation/, /reserved or documentation/],
    ['100::1', /discard/, /discard/],
    ['4000::1', /outside the global unicast space/, /outside the global unicast space/],
    ['172.32.0.1', null, null],
    ['100.128.0.1', null, null],
  ])('%s', (address, inCloud, onLocal) => {
    const cloudAnswer = addressRefusal(address, cloud);
    const localAnswer = addressRefusal(address, local);
    if (inCloud) expect(cloudAnswer).toMatch(inCloud);
    else expect(cloudAnswer).toBeNull();
    if (onLocal) expect(localAnswer).toMatch(onLocal);
    else expect(localAnswer).toBeNull();
  });
});

describe('checking a URL host at registration and submission', () => {
  const dns = (answers: Record<string, string[]>) => async (host: string) => {
    if (!answers[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return answers[host]!;
  };

  it.each([
    ['https://hooks.example.com/x', { 'hooks.example.com': ['93.184.215.14'] }, null],
    ['https://internal.example/x', { 'internal.example': ['10.0.0.7'] }, /internal\.example resolves to 10\.0\.0\.7 is a private address/],
    ['https://mixed.example/x', { 'mixed.example': ['93.184.215.14', '169.254.169.254'] }, /169\.254\.169\.254.*metadata/],
    ['https://v6.example/x', { 'v6.example': ['::ffff:127.0.0.1'] }, /loopback/],
    ['https://[::ffff:10.0.0.1]/x', {}, /private/],
    ['https://[64:ff9b:1::a9fe:a9fe]/x', {}, /NAT64/],
    ['https://[2002:a00:1::1]/x', {}, /6to4.*private/],
    ['https://teredo.example/x', { 'teredo.example': ['2001:0:4136:e378:8000:63bf:f5ff:fffe'] }, /Teredo/],
    ['https://169.254.169.254/latest', {}, /link-local/],
    // Not resolvable now: accepted, the delivery checks again when it connects.
    ['https://not-yet.example/x', {}, null],
  ])('%s', async (url, answers, why) => {
    const refusal = await hostRefusal(new URL(url), cloud, dns(answers));
    if (why) expect(refusal).toMatch(why);
    else expect(refusal).toBeNull();
  });
});
