import net from "node:net";

/**
 * A tiny SMTP server on 127.0.0.1 for tests (no installed package provides one): it speaks
 * just enough ESMTP for nodemailer (EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no AUTH)
 * and keeps every message it is given, so a test reads the email the platform sent.
 */

export interface ReceivedMail {
  from: string;
  to: string[];
  /** The whole message as sent: headers, blank line, body (dot-stuffing undone). */
  data: string;
}

export interface SmtpServer {
  url: string;
  messages: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtpServer(): Promise<SmtpServer> {
  const messages: ReceivedMail[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    serveSession(socket, messages);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const REPLIES: Record<string, string> = {
  EHLO: "250-127.0.0.1\r\n250-8BITMIME\r\n250 SMTPUTF8",
  HELO: "250 127.0.0.1",
  MAIL: "250 2.1.0 ok",
  RCPT: "250 2.1.5 ok",
  DATA: "354 end with <CRLF>.<CRLF>",
  RSET: "250 2.0.0 ok",
  NOOP: "250 2.0.0 ok",
  QUIT: "221 2.0.0 bye",
};

function serveSession(socket: net.Socket, messages: ReceivedMail[]): void {
  let buffer = "";
  let inData = false;
  let mail: ReceivedMail = { from: "", to: [], data: "" };
  const reply = (line: string) => socket.write(`${line}\r\n`);
  reply("220 127.0.0.1 test ESMTP");
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    buffer += chunk;
    for (;;) {
      if (inData) {
        const end = buffer.indexOf("\r\n.\r\n");
        if (end < 0) return;
        mail.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
        buffer = buffer.slice(end + 5);
        messages.push(mail);
        mail = { from: "", to: [], data: "" };
        inData = false;
        reply("250 2.0.0 queued");
        continue;
      }
      const eol = buffer.indexOf("\r\n");
      if (eol < 0) return;
      const line = buffer.slice(0, eol);
      buffer = buffer.slice(eol + 2);
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === "DATA") inData = true;
      if (verb === "MAIL") mail.from = addressIn(line);
      if (verb === "RCPT") mail.to.push(addressIn(line));
      if (verb === "RSET") mail = { from: "", to: [], data: "" };
      reply(REPLIES[verb] ?? "502 5.5.2 not implemented");
      if (verb === "QUIT") socket.end();
    }
  });
  socket.on("error", () => socket.destroy());
}

function addressIn(line: string): string {
  return /<([^>]*)>/.exec(line)?.[1] ?? "";
}
