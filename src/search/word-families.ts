/**
 * Words of one family that a suffix stemmer leaves apart, as stems: a verb and the noun of its act
 * ("threaten" and "threat", "rebel" and "rebellion", "invade" and "invasion"), an adjective and the verb
 * made of it ("weak" and "weaken"). Readers ask with one ("what did the mayor threaten to do?") where the
 * report has the other ("renewed her threat"). Each maps to one stem of the family, after stemming, so
 * every form of either word is one term. Kept to families whose words mean the same act or quality in
 * news: "trial" and "try", "flight" and "fly", "sale" and "sell", "division" and "divide" are left out.
 */
export const WORD_FAMILIES: ReadonlyMap<string, string> = new Map(
  Object.entries({
    threaten: 'threat',
    rebellion: 'rebel',
    rebelli: 'rebel',
    invas: 'invad',
    decis: 'decid',
    explos: 'explod',
    collis: 'collid',
    conclus: 'conclud',
    persuas: 'persuad',
    suspens: 'suspend',
    expans: 'expand',
    extens: 'extend',
    acquisit: 'acquir',
    injuri: 'injur',
    // Porter stems "died" and "dies" to "di", "die" to "die".
    die: 'di',
    death: 'di',
    growth: 'grow',
    strengthen: 'strength',
    weaken: 'weak',
    widen: 'wide',
    worsen: 'wors',
    deepen: 'deep',
    heighten: 'height',
    frighten: 'fright',
    tighten: 'tight',
    lengthen: 'length',
    shorten: 'short',
    broaden: 'broad',
    admiss: 'admit',
    permiss: 'permit',
    omiss: 'omit',
    submiss: 'submit',
    emiss: 'emit',
    transmiss: 'transmit',
    provis: 'provid',
    inclus: 'includ',
    exclus: 'exclud',
    seizur: 'seiz',
    failur: 'fail',
    departur: 'depart',
    closur: 'close',
    robberi: 'rob',
    discoveri: 'discov',
    recoveri: 'recov',
    deliveri: 'deliv',
    denial: 'deni',
    choic: 'choos',
    belief: 'believ',
    speech: 'speak',
  }),
);
