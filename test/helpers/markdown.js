// What a Markdown page links to, read the way GitHub renders it: test/package/links.test.js checks
// that each link lands, test/package/paths.test.js that git holds what it names.

/** Text outside fenced code blocks and code spans, where a link is a link. */
function withoutCode(text) {
	return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Every link target of a page: inline links and images, reference definitions, HTML src/href. */
function linksOf(text) {
	const prose = withoutCode(text);
	return [
		...[
			...prose.matchAll(/!?\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g),
		].map((m) => m[1]),
		...[...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1]),
		...[...prose.matchAll(/<(?:img|a)\s[^>]*(?:src|href)="([^"]+)"/g)].map((m) => m[1]),
	];
}

module.exports = { linksOf };
