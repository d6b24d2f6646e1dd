import dns2 from "dns2";

/**
 * A real DNS server on 127.0.0.1 (UDP, a free port) answering the TXT records a test
 * publishes; every other name is NXDOMAIN. `address` is what SSO_DNS_SERVERS takes.
 */

export interface DnsServer {
  address: string;
  /** Publishes (replaces) the TXT records of `name`; an empty list removes them. */
  setTxt(name: string, values: string[]): void;
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<DnsServer> {
  const records = new Map<string, string[]>();
  const { Packet } = dns2;
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const values = records.get(question.name.toLowerCase());
      if (!values?.length) response.header.rcode = Packet.RCODE.NXDOMAIN;
      for (const data of values ?? []) {
        // dns2's Resource type wants an encoder; the server encodes plain TXT records itself.
        response.answers.push({ name: question.name, type: Packet.TYPE.TXT, class: Packet.CLASS.IN, ttl: 1, data } as never);
      }
      send(response);
    },
  });
  const { udp } = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  return {
    address: `127.0.0.1:${udp!.port}`,
    setTxt: (name, values) => void records.set(name.toLowerCase(), values),
    close: () => server.close(),
  };
}
