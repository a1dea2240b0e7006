/**
 * Irregular English inflections, so that "drew" and "drawing" meet at "draw"
 * and "went" and "going" at "go": a suffix stemmer cannot join them. Each line
 * is a base form and its irregular past and participle (or a noun and its
 * irregular plural). Forms that are also common words of another meaning are
 * left out ("rose", "ground", "bit", "left", "saw", "fell", "lay", "wound",
 * "tore", "spoke", "bore"), so joining never invents a match.
 */
const LINES = `
arise arose arisen
awake awoke awoken
be was were been
beat beaten
become became
begin began begun
bend bent
bet
bind bound
bite bitten
bleed bled
blow blew blown
break broke broken
breed bred
bring brought
build built
burn burnt
buy bought
catch caught
choose chose chosen
come came
cost
creep crept
cut
deal dealt
dig dug
do did done
draw drew drawn
dream dreamt
drink drank drunk
drive drove driven
eat ate eaten
feed fed
feel felt
fight fought
find found
flee fled
fly flew flown
forbid forbade forbidden
forget forgot forgotten
forgive forgave forgiven
freeze froze frozen
get got gotten
give gave given
go went gone
grow grew grown
hang hung
have had
hear heard
hide hid hidden
hit
hold held
hurt
keep kept
kneel knelt
know knew known
lead led
learn learnt
leave
lend lent
let
light lit
lose lost
make made
mean meant
meet met
pay paid
prove proven
put
quit
read
ride rode ridden
ring rang rung
rise risen
run ran
say said
see seen
seek sought
sell sold
send sent
set
shake shook shaken
shine shone
shoot shot
show shown
shrink shrank shrunk
shut
sing sang sung
sink sank sunk
sit sat
sleep slept
slide slid
speak spoken
spend spent
spin spun
spread
stand stood
steal stole stolen
stick stuck
sting stung
strike struck
swear swore sworn
sweep swept
swim swam swum
swing swung
take took taken
teach taught
tell told
think thought
throw threw thrown
understand understood
wake woke woken
wear wore worn
weave wove woven
weep wept
win won
write wrote written
child children
person people
man men
woman women
foot feet
tooth teeth
mouse mice
`;

/** Base form → its irregular forms. */
export const IRREGULAR_FORMS: ReadonlyMap<string, readonly string[]> = new Map(
  LINES.trim()
    .split('\n')
    .map((line) => {
      const [base, ...forms] = line.trim().split(/\s+/) as [string, ...string[]];
      return [base, forms] as const;
    })
    .filter(([, forms]) => forms.length > 0),
);

/** Irregular form → base form. */
export const IRREGULAR_BASE: ReadonlyMap<string, string> = new Map(
  [...IRREGULAR_FORMS].flatMap(([base, forms]) => forms.map((form) => [form, base] as const)),
);
