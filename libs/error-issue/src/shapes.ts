import type { Detector } from './patterns.js';

/**
 * Secrets and identities recognised by their shape, whatever their length
 * (docs/error-issue.md "Secrets by shape"). Part of the one detector list
 * (`DETECTORS` in patterns.ts), applied before paths and hosts: a key's name
 * stays (`PGPASSWORD=<secret>`), its value goes.
 */

/** Words that make a `KEY=value` key name a secret (`PGPASSWORD`, `api_key`, `NPM_TOKEN`, `client-secret`). */
const SECRET_KEY = String.raw`[\p{L}\p{N}_.-]*?(?:pass(?:word|wd|phrase)?|pwd|secret|token|credentials?|creds|api[_-]?key|private[_-]?key|access[_-]?key|key|auth|cookie|session|signature|salt|otp|pin)[\p{L}\p{N}_.-]*`;

/** A value: quoted (to its closing quote, on one line) or bare (to a blank, a separator, a quote or a placeholder). */
const VALUE = String.raw`("[^"\r\n]*"|'[^'\r\n]*'|[^\s,;&"'<>]+)`;

/** `=` between key and value (`KEY=value`, `key = value`), a JSON pair (`"key": "value"`), or `key: value`. */
const SEP = String.raw`(\s*=\s*|"?\s*:\s*"|:\s+)`;

/** A key of `key: value` that is an ordinary word in prose (`missing key: verdict`) is not a secret key there. */
const PROSE_KEYS = /^(?:key|keys|session|sessions|auth|pin|salt|signature|token|tokens|pass)$/i;

/** Keys whose value names a person or an account (`USER=dev`, `"author": "Alice Smith"`): the value is used as a name. */
const NAME_KEY = String.raw`(?:user(?:name)?|logname|login|author|owner|committer|assignee|reviewer|full[_-]?name|display[_-]?name|git_author_name|git_committer_name|account)`;

/** Keys whose value names a machine (`HOSTNAME=buildbox07`, `host: build-7`). */
const HOST_KEY = String.raw`(?:host(?:name)?|computername|machine(?:[_-]?name)?|node[_-]?name)`;

/** Secret and identity shapes, first in the detector list. */
export const SECRET_SHAPES: readonly Detector[] = [
  {
    name: 'private-key',
    pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    placeholder: '<secret>',
  },
  // An ssh public key and its blob (its comment, `user@host`, is USER_AT_HOST's).
  {
    name: 'ssh-key',
    pattern: /\b(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) +[A-Za-z0-9+/]{8,}={0,3}/g,
    placeholder: '<secret>',
  },
  { name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, placeholder: '<secret>' },
  // SHA256:base64 (ssh, gpg) and colon-hex pairs: MD5 fingerprints (16 pairs), SHA-1 (20), MAC addresses (6).
  { name: 'fingerprint', pattern: /\b(?:SHA(?:1|256|384|512)|MD5):[A-Za-z0-9+/]{16,}={0,2}/gi, placeholder: '<secret>' },
  {
    name: 'fingerprint',
    pattern: /(?<![0-9A-Fa-f:-])(?:MD5:)?[0-9A-Fa-f]{2}(?:([:-])[0-9A-Fa-f]{2})(?:\1[0-9A-Fa-f]{2}){4,}(?![0-9A-Fa-f:-])/g,
    placeholder: '<secret>',
  },
  {
    name: 'secret-token',
    pattern:
      /\b(?:gh[pousr]_[A-Za-z0-9]{4,}|github_pat_[A-Za-z0-9_]{4,}|glpat-[A-Za-z0-9_-]{4,}|glptt-[A-Za-z0-9_-]{4,}|npm_[A-Za-z0-9]{8,}|pypi-[A-Za-z0-9_-]{8,}|hf_[A-Za-z0-9]{8,}|sk-(?:proj-|ant-)[A-Za-z0-9_-]{4,}|sk-[A-Za-z0-9_-]{16,}|(?:sk|pk|rk)_(?:live|test)_[A-Za-z0-9]{4,}|xox[abprse]-[A-Za-z0-9-]{4,}|xapp-[A-Za-z0-9-]{4,}|(?:AKIA|ASIA)[0-9A-Z]{12,}|AIza[0-9A-Za-z_-]{20,}|ya29\.[A-Za-z0-9_-]{8,}|dop_v1_[a-f0-9]{8,}|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{8,})/g,
    placeholder: '<secret>',
  },
  {
    name: 'auth-header',
    pattern: /\b((?:proxy-)?authorization|x-api-key|x-auth-token|set-cookie|cookie)(\s*[:=]\s*)[^\r\n]+/gi,
    placeholder: '$1$2<secret>',
    accept: (m) => !/^[^:=]*[:=]\s*<secret>$/.test(m),
  },
  {
    name: 'auth-header',
    pattern: /\b(Bearer|Basic|bearer) +[A-Za-z0-9._~+/=-]{6,}/g,
    placeholder: '$1 <secret>',
    accept: (m) => /[0-9+/=]/.test(m.split(/ +/)[1]!),
  },
  {
    name: 'secret-kv',
    pattern: new RegExp(String.raw`(?<![\p{L}\p{N}_])(${SECRET_KEY})${SEP}${VALUE}`, 'giu'),
    placeholder: '$1$2<secret>',
    // In `key: value` prose, a bare ordinary word (`missing key: verdict`) is no secret key.
    accept: (m) => !(/^[\p{L}]+:\s/u.test(m) && PROSE_KEYS.test(m.split(':')[0]!)),
  },
  {
    name: 'secret-flag',
    pattern: /(?<![\w-])(--?[\w-]*(?:pass(?:word)?|token|secret|api-key|credential)[\w-]*)(=| +)([^\s"'<>-][^\s"'<>]*)/gi,
    placeholder: '$1$2<secret>',
  },
  { name: 'identity-kv', pattern: new RegExp(String.raw`(?<![\p{L}\p{N}_])(${NAME_KEY})${SEP}${VALUE}`, 'giu'), placeholder: '$1$2<name>' },
  { name: 'identity-kv', pattern: new RegExp(String.raw`(?<![\p{L}\p{N}_])(${HOST_KEY})${SEP}${VALUE}`, 'giu'), placeholder: '$1$2<host>' },
];

/**
 * `user@host` with a bare host (an ssh key comment `alice@host-3`, a prompt
 * `dev@buildbox`); a dotted one is an email. A package at a version (`x@1.2`) is neither.
 */
export const USER_AT_HOST: readonly Detector[] = [
  {
    name: 'user-at-host',
    pattern: /(?<![\p{L}\p{N}._%+@-])[\p{L}\p{M}\p{N}._%+-]+@\p{L}[\p{L}\p{M}\p{N}-]*(?![\p{L}\p{N}.@-])/gu,
    placeholder: '<name>@<host>',
  },
];

/** A container image on a registry (`registry.acme.internal:5000/team/app:1.4`, `ghcr.io/acme/app@sha256:…`). */
export const REGISTRY_IMAGE: readonly Detector[] = [
  {
    name: 'registry-image',
    pattern: /(?<![\w./@-])(?:[a-z0-9-]+\.)+[a-z0-9-]+(?::\d+)?\/[a-z0-9._-]+(?:\/[a-z0-9._-]+)*(?::[\w.-]+)?(?:@sha256:[0-9a-f]{64})?/g,
    placeholder: '<image>',
    // `state.json/x` is no registry: the first part needs a dotted name ending in letters (`ghcr.io`, `registry.acme.internal`).
    accept: (m) => /^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?\//.test(m),
  },
];
