/**
 * The queries of the speed benches (bench/search.ts, bench/peers/speed.ts): one or two words of one topic of the
 * generator (legal register, as a lawyer would stay within one matter) and lay phrasings of the same matters, drawn
 * with a fixed seed. On the generated corpus every topic word occurs in 35,000 to 90,000 passages.
 */
const TOPICS = [
  ['Eigenbedarfskündigung', 'Mietverhältnis', 'Härtegründe', 'Wohnraum'], ['Verkehrssicherungspflicht', 'Glätte', 'Streupflicht', 'Sturz'],
  ['Sachmangel', 'Nacherfüllung', 'Gebrauchtwagen', 'Rücktritt'], ['Pflichtverletzung', 'Fristsetzung', 'Werkvertrag', 'Abnahme'],
  ['Betrug', 'Vermögensschaden', 'Täuschung', 'Strafzumessung'], ['Baugenehmigung', 'Innenbereich', 'Rücksichtnahme', 'Bebauung'],
  ['Versammlungsfreiheit', 'Gefahrenprognose', 'Auflage'], ['Flüchtlingseigenschaft', 'Verfolgung', 'Herkunftsland', 'Abschiebung'],
  ['Bürgergeld', 'Bedarfsgemeinschaft', 'Jobcenter'], ['Kostenerstattung', 'Genehmigungsfiktion', 'Krankenkasse'],
  ['Erwerbsminderungsrente', 'Leistungsvermögen', 'Gutachten'], ['Kündigungsschutz', 'Sozialauswahl', 'betriebsbedingt'],
  ['Abmahnung', 'Interessenabwägung', 'fristlose Kündigung'], ['Urlaubsabgeltung', 'Urlaubsanspruch', 'Verfall'],
  ['Werbungskosten', 'Arbeitszimmer', 'Veranlagung'], ['Geschäftsführer', 'Steuerschulden', 'Haftung'],
  ['Meinungsfreiheit', 'Persönlichkeitsrecht', 'Verfassungsbeschwerde'], ['Berufsfreiheit', 'Verhältnismäßigkeit', 'Eingriff'],
  ['Patentfähigkeit', 'erfinderische Tätigkeit', 'Stand der Technik'],
];
const LAY = ['Vermieter will mich rauswerfen, weil sein Sohn einziehen soll', 'auf dem vereisten Gehweg ausgerutscht',
  'gebrauchtes Auto gekauft und es ist kaputt', 'Handwerker hat schlecht gearbeitet und will trotzdem Geld',
  'der Chef hat mich rausgeschmissen', 'Jobcenter zahlt die Miete nicht', 'Krankenkasse hat auf meinen Antrag nicht geantwortet',
  'kann nicht mehr arbeiten und will Rente', 'Urlaub verfallen nach der Kündigung', 'Finanzamt erkennt mein Arbeitszimmer nicht an',
  'Nachbar baut zu nah an mein Haus', 'Demo wurde verboten', 'abgeschoben ins Herkunftsland', 'Geschäftsführer soll für Steuern haften'];

/**
 * `count` legal queries, `count` lay ones, and both alternating (`mixed`, for hybrid and semantic: keyword requires
 * every word, so a lay query finds nothing there). The same lists for the same count in every run.
 */
export function benchQueries(count: number): { legal: string[]; lay: string[]; mixed: string[] } {
  let seed = 7;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296);
  const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
  const legal = Array.from({ length: count }, () => {
    const topic = pick(TOPICS);
    const first = pick(topic);
    const second = pick(topic.filter((word) => word !== first));
    return random() < 0.3 ? first : `${first} ${second}`;
  });
  const lay = Array.from({ length: count }, () => pick(LAY));
  return { legal, lay, mixed: legal.map((query, i) => (i % 2 === 0 ? query : lay[i])) };
}
