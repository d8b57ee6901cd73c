// EU and international acts that German decisions cite, written for juralite: per act its cited abbreviation, the
// other abbreviations and names it goes by, and its article numbers. No text is held for them
// (`text_available` 0); the catalogue lets the citation check tell an existing article from a non-existing one.

export interface CatalogueAct {
  /** The cited abbreviation (the `laws.abbreviation`). */
  abbreviation: string;
  /** Other abbreviations and official short references ('DS-GVO', 'VO (EU) 2016/679', juris 'EUV 2016/679'). */
  aliases: string[];
  title: string;
  /** Further names (matched through nameKey). */
  names?: string[];
  jurisdiction: 'EU' | 'XI';
  law_type: string;
  /** CELEX number for EU acts, the treaty series reference for international ones. */
  source_id: string;
  /** Article numbers as inclusive ranges ([1, 99] = Art. 1 to Art. 99) or single numbers ('6a'). */
  articles: (readonly [number, number] | string)[];
}

export const EU_CATALOGUE: readonly CatalogueAct[] = [
  {
    abbreviation: 'DSGVO',
    aliases: ['DS-GVO', 'GDPR', 'VO (EU) 2016/679', 'Verordnung (EU) 2016/679', 'EUV 2016/679', 'EU-DSGVO'],
    title: 'Verordnung (EU) 2016/679 zum Schutz natürlicher Personen bei der Verarbeitung personenbezogener Daten, zum freien Datenverkehr und zur Aufhebung der Richtlinie 95/46/EG (Datenschutz-Grundverordnung)',
    names: ['Datenschutz-Grundverordnung'],
    jurisdiction: 'EU', law_type: 'Verordnung (EU)', source_id: 'CELEX:32016R0679', articles: [[1, 99]],
  },
  {
    abbreviation: 'AEUV',
    aliases: ['TFEU', 'AEU-Vertrag', 'AEUVtr'],
    title: 'Vertrag über die Arbeitsweise der Europäischen Union',
    jurisdiction: 'EU', law_type: 'Vertrag', source_id: 'CELEX:12016E/TXT', articles: [[1, 358]],
  },
  {
    abbreviation: 'EUV',
    aliases: ['EU-Vertrag', 'TEU', 'EUVtr'],
    title: 'Vertrag über die Europäische Union',
    jurisdiction: 'EU', law_type: 'Vertrag', source_id: 'CELEX:12016M/TXT', articles: [[1, 55]],
  },
  {
    abbreviation: 'GRCh',
    aliases: ['GrCh', 'GRC', 'EuGRCh', 'EU-GRCh', 'ChGrEU'],
    title: 'Charta der Grundrechte der Europäischen Union',
    names: ['EU-Grundrechtecharta', 'Grundrechtecharta'],
    jurisdiction: 'EU', law_type: 'Charta', source_id: 'CELEX:12016P/TXT', articles: [[1, 54]],
  },
  {
    abbreviation: 'EMRK',
    aliases: ['MRK', 'ECHR', 'EMRKonv'],
    title: 'Konvention zum Schutz der Menschenrechte und Grundfreiheiten',
    names: ['Europäische Menschenrechtskonvention', 'Konvention zum Schutze der Menschenrechte und Grundfreiheiten'],
    jurisdiction: 'XI', law_type: 'Übereinkommen', source_id: 'SEV Nr. 5', articles: [[1, 59]],
  },
  {
    abbreviation: 'Rom I-VO',
    aliases: ['Rom I', 'Rom-I-VO', 'Rom I VO', 'VO (EG) 593/2008', 'Verordnung (EG) Nr. 593/2008', 'EGV 593/2008'],
    title: 'Verordnung (EG) Nr. 593/2008 über das auf vertragliche Schuldverhältnisse anzuwendende Recht (Rom I)',
    jurisdiction: 'EU', law_type: 'Verordnung (EG)', source_id: 'CELEX:32008R0593', articles: [[1, 29]],
  },
  {
    abbreviation: 'Rom II-VO',
    aliases: ['Rom II', 'Rom-II-VO', 'Rom II VO', 'VO (EG) 864/2007', 'Verordnung (EG) Nr. 864/2007', 'EGV 864/2007'],
    title: 'Verordnung (EG) Nr. 864/2007 über das auf außervertragliche Schuldverhältnisse anzuwendende Recht (Rom II)',
    jurisdiction: 'EU', law_type: 'Verordnung (EG)', source_id: 'CELEX:32007R0864', articles: [[1, 32]],
  },
  {
    abbreviation: 'Brüssel Ia-VO',
    aliases: ['EuGVVO', 'Brüssel Ia', 'Brüssel-Ia-VO', 'EuGVO', 'VO (EU) 1215/2012', 'Verordnung (EU) Nr. 1215/2012', 'EUV 1215/2012'],
    title: 'Verordnung (EU) Nr. 1215/2012 über die gerichtliche Zuständigkeit und die Anerkennung und Vollstreckung von Entscheidungen in Zivil- und Handelssachen',
    jurisdiction: 'EU', law_type: 'Verordnung (EU)', source_id: 'CELEX:32012R1215', articles: [[1, 81]],
  },
  {
    abbreviation: 'Dublin III-VO',
    aliases: ['Dublin III', 'Dublin-III-VO', 'VO (EU) 604/2013', 'Verordnung (EU) Nr. 604/2013', 'EUV 604/2013'],
    title: 'Verordnung (EU) Nr. 604/2013 zur Festlegung der Kriterien und Verfahren zur Bestimmung des Mitgliedstaats, der für die Prüfung eines von einem Drittstaatsangehörigen oder Staatenlosen in einem Mitgliedstaat gestellten Antrags auf internationalen Schutz zuständig ist',
    jurisdiction: 'EU', law_type: 'Verordnung (EU)', source_id: 'CELEX:32013R0604', articles: [[1, 49]],
  },
  {
    abbreviation: 'Fluggastrechte-VO',
    aliases: ['FluggastrechteVO', 'FluggastRVO', 'VO (EG) 261/2004', 'Verordnung (EG) Nr. 261/2004', 'EGV 261/2004'],
    title: 'Verordnung (EG) Nr. 261/2004 über eine gemeinsame Regelung für Ausgleichs- und Unterstützungsleistungen für Fluggäste im Fall der Nichtbeförderung und bei Annullierung oder großer Verspätung von Flügen',
    names: ['Fluggastrechteverordnung'],
    jurisdiction: 'EU', law_type: 'Verordnung (EG)', source_id: 'CELEX:32004R0261', articles: [[1, 19]],
  },
  {
    abbreviation: 'EuErbVO',
    aliases: ['EU-ErbVO', 'VO (EU) 650/2012', 'Verordnung (EU) Nr. 650/2012', 'EUV 650/2012'],
    title: 'Verordnung (EU) Nr. 650/2012 über die Zuständigkeit, das anzuwendende Recht, die Anerkennung und Vollstreckung von Entscheidungen und die Annahme und Vollstreckung öffentlicher Urkunden in Erbsachen sowie zur Einführung eines Europäischen Nachlasszeugnisses',
    names: ['Europäische Erbrechtsverordnung'],
    jurisdiction: 'EU', law_type: 'Verordnung (EU)', source_id: 'CELEX:32012R0650', articles: [[1, 84]],
  },
  {
    abbreviation: 'EuInsVO',
    aliases: ['VO (EU) 2015/848', 'Verordnung (EU) 2015/848', 'EUV 2015/848'],
    title: 'Verordnung (EU) 2015/848 über Insolvenzverfahren',
    names: ['Europäische Insolvenzverordnung'],
    jurisdiction: 'EU', law_type: 'Verordnung (EU)', source_id: 'CELEX:32015R0848', articles: [[1, 92]],
  },
  {
    abbreviation: 'Brüssel IIb-VO',
    aliases: ['Brüssel IIb', 'Brüssel-IIb-VO', 'VO (EU) 2019/1111', 'Verordnung (EU) 2019/1111', 'EUV 2019/1111'],
    title: 'Verordnung (EU) 2019/1111 über die Zuständigkeit, die Anerkennung und Vollstreckung von Entscheidungen in Ehesachen und in Verfahren betreffend die elterliche Verantwortung und über internationale Kindesentführungen',
    jurisdiction: 'EU', law_type: 'Verordnung (EU)', source_id: 'CELEX:32019R1111', articles: [[1, 105]],
  },
  {
    abbreviation: 'CISG',
    aliases: ['UN-Kaufrecht', 'WKR', 'CISG-Übereinkommen'],
    title: 'Übereinkommen der Vereinten Nationen über Verträge über den internationalen Warenkauf',
    names: ['Wiener UN-Kaufrecht'],
    jurisdiction: 'XI', law_type: 'Übereinkommen', source_id: 'UNTS Vol. 1489, S. 3', articles: [[1, 101]],
  },
  {
    abbreviation: 'GFK',
    aliases: ['Genfer Flüchtlingskonvention', 'FlüAbk'],
    title: 'Abkommen über die Rechtsstellung der Flüchtlinge',
    names: ['Genfer Flüchtlingskonvention'],
    jurisdiction: 'XI', law_type: 'Übereinkommen', source_id: 'UNTS Vol. 189, S. 137', articles: [[1, 46]],
  },
  {
    abbreviation: 'MÜ',
    aliases: ['Montrealer Übereinkommen', 'MontrealÜbk'],
    title: 'Übereinkommen zur Vereinheitlichung bestimmter Vorschriften über die Beförderung im internationalen Luftverkehr',
    names: ['Montrealer Übereinkommen'],
    jurisdiction: 'XI', law_type: 'Übereinkommen', source_id: 'UNTS Vol. 2242, S. 309', articles: [[1, 57]],
  },
  {
    abbreviation: 'UN-BRK',
    aliases: ['BRK', 'CRPD', 'UN-Behindertenrechtskonvention'],
    title: 'Übereinkommen der Vereinten Nationen über die Rechte von Menschen mit Behinderungen',
    names: ['UN-Behindertenrechtskonvention'],
    jurisdiction: 'XI', law_type: 'Übereinkommen', source_id: 'UNTS Vol. 2515, S. 3', articles: [[1, 50]],
  },
];

/** The article numbers of an act, in order ('1', '2', ..., '99'). */
export function catalogueArticles(act: CatalogueAct): string[] {
  const out: string[] = [];
  for (const a of act.articles) {
    if (typeof a === 'string') out.push(a);
    else for (let n = a[0]; n <= a[1]; n++) out.push(String(n));
  }
  return out;
}
