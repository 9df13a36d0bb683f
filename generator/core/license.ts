// The licence a site states for its data (site.yaml `license`): an SPDX licence id, or a name and
// the URL of its text. The OpenAPI document, the Atom feed, the downloads listing and the HTML
// view state it; the site index carries it to the edge, where the HTML view is rendered. Pure.

export interface License {
  /** How the licence is called: its SPDX id when given so. */
  name: string;
  /** Where its text is: spdx.org's page of an SPDX id. */
  url: string;
  /** The SPDX id, when given so. */
  identifier?: string;
}

// An SPDX licence id's shape (`CC0-1.0`, `MIT`, `GPL-3.0-or-later`, `LicenseRef-…`): letters,
// digits, dots and hyphens. The list of ids is not kept here; a typo gives spdx.org's 404 page.
const SPDX_ID = /^[A-Za-z0-9][A-Za-z0-9.-]{0,63}$/;

/** The licence of an SPDX id, or null when `id` does not have the shape of one. */
export function spdxLicense(id: string): License | null {
  return SPDX_ID.test(id) ? { name: id, url: `https://spdx.org/licenses/${id}.html`, identifier: id } : null;
}

/** What an OpenAPI 3.1 document's `info.license` says: `identifier` and `url` exclude each other. */
export function openApiLicense(license: License): { name: string; identifier: string } | { name: string; url: string } {
  return license.identifier === undefined
    ? { name: license.name, url: license.url }
    : { name: license.name, identifier: license.identifier };
}

/** The licence in words, with the URL of its text: the Atom feed's `rights`. */
export function licenseText(license: License): string {
  return `${license.name} (${license.url})`;
}

/** True when `value` is a License (the site index's, which may be damaged). */
export function isLicense(value: unknown): value is License {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const l = value as Record<string, unknown>;
  const keys = Object.keys(l);
  return (
    typeof l.name === 'string' &&
    typeof l.url === 'string' &&
    (l.identifier === undefined || typeof l.identifier === 'string') &&
    keys.every((k) => k === 'name' || k === 'url' || k === 'identifier')
  );
}
