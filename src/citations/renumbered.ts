// Provisions that were repealed or renumbered: a citation of the old number in a text dated after the change gets a
// pre-reform-numbering advisory (resolutions.md). It never changes a verdict. Written for juralite; each entry names
// the amending act.

export interface Renumbering {
  /** The provision as cited, canonical prefix: '§ 64 GmbHG', '§ 434 Abs. 1 Satz 2 BGB'. */
  provision: string;
  /** The day the old numbering ceased to apply. */
  changed_on: string;
  advisory: string;
}

export const RENUMBERED: readonly Renumbering[] = [
  { provision: '§ 64 GmbHG', changed_on: '2021-01-01',
    advisory: '§ 64 GmbHG was repealed on 1 January 2021 (SanInsFoG); the liability for payments after insolvency is now § 15b InsO.' },
  { provision: '§ 130a HGB', changed_on: '2021-01-01',
    advisory: '§ 130a Abs. 1 to 3 HGB were replaced on 1 January 2021 (SanInsFoG) by § 15b InsO.' },
  { provision: '§ 92 Abs. 2 AktG', changed_on: '2021-01-01',
    advisory: '§ 92 Abs. 2 AktG was repealed on 1 January 2021 (SanInsFoG); the prohibition of payments is now § 15b InsO.' },
  { provision: '§ 434 Abs. 1 Satz 2 BGB', changed_on: '2022-01-01',
    advisory: '§ 434 BGB was rewritten on 1 January 2022 (Warenkaufrichtlinie): the former Abs. 1 Satz 2 (suitability for the '
      + 'contractual or usual use) is now § 434 Abs. 2 and 3 BGB.' },
  { provision: '§ 476 BGB', changed_on: '2022-01-01',
    advisory: 'Since 1 January 2022 the presumption of a defect in consumer sales (formerly § 476 BGB) is § 477 BGB; § 476 BGB now '
      + 'governs deviating agreements.' },
  { provision: '§ 477 BGB', changed_on: '2022-01-01',
    advisory: 'Since 1 January 2022 the special rules on guarantees in consumer sales (formerly § 477 BGB) are § 479 BGB; '
      + '§ 477 BGB now holds the presumption of a defect.' },
  { provision: '§ 28 BDSG', changed_on: '2018-05-25',
    advisory: 'The former BDSG was replaced on 25 May 2018 by the DSGVO and the new BDSG; the lawfulness of processing for own '
      + 'business purposes (former § 28 BDSG) now follows Art. 6 DSGVO.' },
  { provision: '§ 4 BDSG', changed_on: '2018-05-25',
    advisory: 'The former BDSG was replaced on 25 May 2018; the lawfulness of processing (former § 4 BDSG) now follows Art. 6 DSGVO.' },
  { provision: '§ 611a BGB', changed_on: '2006-08-18',
    advisory: '§ 611a BGB (prohibition of sex discrimination) was repealed on 18 August 2006 by the AGG; the § 611a BGB in force '
      + 'since 1 April 2017 defines the employment contract.' },
  { provision: '§ 12 UWG', changed_on: '2020-12-02',
    advisory: 'The warning letter rules of former § 12 Abs. 1 UWG are § 13 UWG since 2 December 2020; § 12 UWG now covers '
      + 'interim injunctions only.' },
];

/** The advisory for a canonical statute citation cited at `date`, if its numbering had changed by then. */
export function renumberingAdvisory(canonical: string, date: string | null): string | null {
  if (!date) return null;
  for (const entry of RENUMBERED) {
    if (date < entry.changed_on) continue;
    const law = entry.provision.split(' ').pop()!;
    if (!canonical.endsWith(` ${law}`)) continue;
    const unit = entry.provision.slice(0, -law.length - 1);
    const cited = canonical.slice(0, -law.length - 1);
    if (cited === unit || cited.startsWith(`${unit} `)) return entry.advisory;
  }
  return null;
}
