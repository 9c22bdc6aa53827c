/**
 * English function words: too common to tell passages apart, so neither indexed nor searched. Question
 * words (who, what, how much...) are here too; the answer type they ask for is read from the raw question.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren arent as at be because been before being
  below between both but by can cannot cant could couldnt did didnt do does doesnt doing dont down during
  each few for from further had hadnt has hasnt have havent having he hed hell hes her here heres hers
  herself him himself his how hows i id ill im ive if in into is isnt it its itself lets me more most
  mustnt my myself no nor not of off on once only or other ought our ours ourselves out over own same
  shant she shed shell shes should shouldnt so some such than that thats the their theirs them themselves
  then there theres these they theyd theyll theyre theyve this those through to too under until up very
  was wasnt we wed well were weve werent what whats when whens where whereabouts wheres which while who whos whom why
  whys with wont would wouldnt you youd youll youre youve your yours yourself yourselves also just will
  s t d ll m re ve much many whose per`.split(/\s+/),
);
