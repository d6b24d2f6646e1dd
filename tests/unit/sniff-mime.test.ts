import mime from "mime-types";
import { describe, expect, it } from "vitest";
import { sniffMimeType } from "@/lib/files/sniff-mime";
import { toResourceContents } from "@/lib/host-resources/text-mime";
import { isImageType, isTextType } from "@/components/files/format";
import { isTextMimeType } from "@/lib/mime/classify-mime-type";
import { PNG_1X1 } from "@/tests/helpers/files";

const everyExtension = Object.keys(mime.types);
const TEXT = Buffer.from("line one\nline two ✓\n");
const BINARY = Buffer.from([0x01, 0x80, 0x9c, 0xc3, 0x28, 0x07, 0xfe]);

describe("an upload's MIME type: content identification first, then the name's extension", () => {
  it("bytes that start with the PNG signature but do not parse are image/png by the name pixel.png", async () => {
    const broken = Buffer.concat([PNG_1X1.subarray(0, 8), Buffer.from([0xff, 0x00, 0x13, 0x37])]);
    expect(await sniffMimeType(broken, "pixel.png", false)).toBe("image/png");
    expect(await sniffMimeType(broken, "pixel", false)).toBe("application/octet-stream");
  });

  it("positive identification by content wins over the name", async () => {
    expect(await sniffMimeType(PNG_1X1, "report.pdf", false)).toBe("image/png");
  });

  it(`binary content takes its extension's type from the registry for all ${everyExtension.length} extensions it knows`, async () => {
    for (const extension of everyExtension) expect(await sniffMimeType(BINARY, `f.${extension.toUpperCase()}`, false), extension).toBe(mime.types[extension]);
  });

  it("seed 000 'A text MIME type comes back as text': text content under any known extension gets a type that reads back as text", async () => {
    for (const extension of [...everyExtension, "jsonl", "py", "unknownext"]) {
      const type = await sniffMimeType(TEXT, `sample.${extension}`, true);
      expect(toResourceContents("files://fl_x", type, TEXT), `${extension}: ${type}`).toEqual({ uri: "files://fl_x", mimeType: type, text: TEXT.toString() });
    }
    expect(await sniffMimeType(TEXT, "data.csv", true)).toBe("text/csv");
    expect(await sniffMimeType(TEXT, "types.ts", true)).toBe("text/plain");
  });
});

describe("text MIME types (host resources and the files page agree)", () => {
  it.each([
    ["text/csv; charset=latin1", true], ["application/json", true], ["application/javascript", true], ["application/xml", true],
    ["image/svg+xml", true], ["application/ld+json", true], ["application/yaml", true], ["text/x-typescript", true],
    ["image/png", false], ["application/pdf", false], ["application/octet-stream", false], ["video/mp2t", false], ["application/jsonx", false],
  ])("%s → %s", (type, text) => {
    expect(isTextMimeType(type)).toBe(text);
    expect(isTextType(type)).toBe(text);
  });

  it("a non-text type with UTF-8 bytes is still a blob; a text type with other bytes too", () => {
    expect(toResourceContents("u", "application/pdf", TEXT)).toEqual({ uri: "u", mimeType: "application/pdf", blob: TEXT.toString("base64") });
    expect(toResourceContents("u", "text/csv", Buffer.from("caf\xe9", "latin1"))).toMatchObject({ blob: expect.any(String) });
  });

  it("every image type is tried as an image preview, nothing else", () => {
    expect(["image/png", "image/tiff", "IMAGE/WEBP; q=1"].map(isImageType)).toEqual([true, true, true]);
    expect(["application/pdf", "text/plain"].map(isImageType)).toEqual([false, false]);
  });
});
