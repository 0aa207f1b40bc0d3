// Sheet and workbook protection as current Excel writes it: the password is never stored,
// only a salted SHA-512 hash iterated 100,000 times (ECMA-376 Agile: hash(salt + UTF-16LE
// password), then hash(previous + little-endian iteration number) per spin).
import { hash as digest, randomBytes } from "node:crypto";
import { SHEET_PROTECTION_ALLOWANCES, type XlsxSheetProtection, type XlsxWorkbookProtection } from "../../contracts/xlsx-sheet-options.ts";

export const PASSWORD_SPIN_COUNT = 100_000;
const SALT_BYTES = 16;

export interface PasswordHash {
  algorithmName: "SHA-512";
  hashValue: string;
  saltValue: string;
  spinCount: number;
}

const SHA512_BYTES = 64;

export function excelPasswordHash(password: string, salt: Buffer = randomBytes(SALT_BYTES), spinCount = PASSWORD_SPIN_COUNT): PasswordHash {
  // One buffer holds the previous hash and the iteration number, so each spin is a single one-shot digest.
  const round = Buffer.alloc(SHA512_BYTES + 4);
  let hash = digest("sha512", Buffer.concat([salt, Buffer.from(password, "utf16le")]), "buffer");
  for (let i = 0; i < spinCount; i++) {
    hash.copy(round, 0);
    round.writeUInt32LE(i, SHA512_BYTES);
    hash = digest("sha512", round, "buffer");
  }
  return { algorithmName: "SHA-512", hashValue: hash.toString("base64"), saltValue: salt.toString("base64"), spinCount };
}

/** Hashes each distinct password of a workbook once: 100,000 spins cost a noticeable fraction of a second. */
export class PasswordBook {
  private readonly hashes = new Map<string, PasswordHash>();

  hash(password: string): PasswordHash {
    let hash = this.hashes.get(password);
    if (!hash) {
      hash = excelPasswordHash(password);
      this.hashes.set(password, hash);
    }
    return hash;
  }
}

function hashAttributes(passwords: PasswordBook, password: string | undefined, prefix: string): string {
  if (password === undefined) return "";
  const hash = passwords.hash(password);
  const name = (attribute: string) => (prefix ? `${prefix}${attribute[0]!.toUpperCase()}${attribute.slice(1)}` : attribute);
  return ` ${name("algorithmName")}="${hash.algorithmName}" ${name("hashValue")}="${hash.hashValue}" ${name("saltValue")}="${hash.saltValue}" ${name("spinCount")}="${hash.spinCount}"`;
}

/** `<sheetProtection>`: what is allowed is written as 0 (the attributes default to protected). */
export function sheetProtectionXml(protection: XlsxSheetProtection | undefined, passwords: PasswordBook): string {
  if (!protection) return "";
  const allowed = protection.allow.map((name) => ` ${SHEET_PROTECTION_ALLOWANCES[name]}="0"`).join("");
  return `<sheetProtection${hashAttributes(passwords, protection.password, "")} sheet="1" objects="1" scenarios="1"${allowed}/>`;
}

export function workbookProtectionXml(protection: XlsxWorkbookProtection | undefined, passwords: PasswordBook): string {
  if (!protection) return "";
  return `<workbookProtection${hashAttributes(passwords, protection.password, "workbook")} lockStructure="1"/>`;
}
