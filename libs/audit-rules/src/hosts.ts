// The host-name rule lives in libs/citations (one home: the citation grammar and error-issue's `host` detector).
export { HOST_SUFFIXES, isHostName } from '@okstra/citations';
