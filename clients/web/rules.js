// @ts-check
// The "Full rules" page in English (the seed page, verbatim), Dutch and French
// (faithful translations), followed by the table's exact rulings (docs/RULES.md, R1-R20).

import { cardSVG } from "./cards.js";
import { html } from "./dom.js";

const RULES = {
  en: {
    title: "Full rules",
    intro:
      "Bid to become declarer and face three defenders. Capture card points and the three key bouts to make your contract.",
    sections: [
      [
        "Objective",
        "The three bouts are Le Bateleur (trump I, the Petit), Le Monde (trump XXI) and Le Mat (the Fool, following the Excuse rules). The taker’s target depends on the number of bouts ultimately captured, not the number originally dealt.",
        "The declarer needs 56 card points with 0 bouts, 51 with 1, 41 with 2, or 36 with all 3. Reaching or exceeding the applicable target wins the contract.",
      ],
      [
        "Setup",
        "Use all 78 Marseille cards: 14 each in Cups, Swords, Batons and Coins, trumps I–XXI and Le Mat (the Fool). Deal 18 to each player and six to the chien. The player to the dealer’s right starts, and play proceeds anticlockwise.",
        "Each seat bids once, passing or choosing a contract above the current bid: Prise ×1, Garde ×2, Garde sans ×4, Garde contre ×6. The highest bidder becomes taker. The other three defend together.",
        "If everyone passes, cancel the deal. Also cancel for Petit sec: a player holds Petit as their only trump and has no Excuse.",
      ],
      [
        "Chien and discards",
        "Prise/Garde: reveal the chien, let the taker take it, then discard six. Kings and bouts cannot be discarded. Use ordinary cards first. Only when fewer than six are available must non-bout trumps fill the shortfall. Discarded trumps are public, and discards count for the taker.",
        "Garde sans: do not reveal or take the chien. At settlement it counts for the taker. Garde contre: keep it hidden too, but award it to the defenders at settlement.",
      ],
      [
        "Declarations before your first card",
        "Poignée (handful) is optional. Show 10/13/15 trumps for a bonus of 20/30/40. Excuse may fill a one-card shortfall only when every trump is shown. The table offers sorted subsets at all available levels.",
        "Exception: a taker holding four Kings and a total of 15 trumps across the hand and forced public discards may include those discards in the triple handful.",
        "Only the taker may announce Chelem before play. An announced slam scores +400 for winning all 18 tricks or −200 on failure. An unannounced slam scores +200 for the team taking every trick.",
      ],
      [
        "Playing a turn",
        "Each player plays one card to a trick. Follow the led suit if possible. Otherwise play a trump. If you have neither, play any card. Excuse may always be played.",
        "When required to play a trump, overtrump the highest trump in the trick if possible, even a defender partner’s. Only if you cannot may you play a lower trump. This also applies when trumps are led.",
        "The highest trump wins. Otherwise the highest card of the led suit wins. Ordinary ranks, highest first: Roi > Reine > Cavalier (Knight) > Valet > 10 > … > 2 > As. Trumps compare by number. The winner leads next.",
        "Normally the player to the dealer’s right leads the first trick. If the taker announces Chelem (slam), the taker leads instead.",
      ],
      [
        "Handling Excuse",
        "Excuse normally does not win. If led, the next non-Excuse card sets the suit. Before the last trick, it stays with its original team. If the other team wins the trick, the table automatically compensates them 0.5 points without exchanging a card.",
        "On the last trick, Excuse normally goes to the opposing team. Exception: if its team won the previous 17 tricks and leads Excuse on the last trick, it wins to complete a slam and stays with that team.",
      ],
      [
        "Card points and bonuses",
        "Card points: bouts and Kings = 4.5. Queens = 3.5. Knights = 2.5. Jacks = 1.5. Others = 0.5. The deck totals 91. Card points determine whether the taker meets the target. They are not the final settlement.",
        "Petit au bout: Petit in the last trick awards 10 × the contract multiplier to that trick’s winning team. If a slam ends with Excuse, use the penultimate trick instead.",
        "Poignée bonuses go to the team winning the contract, not necessarily the declaring team. Neither Poignée nor Chelem bonuses are multiplied by the contract.",
      ],
      [
        "Scoring and ending",
        "After 18 tricks, count the taker’s card points, including any chien or discards awarded to the taker and Excuse adjustments. Captured bouts determine the target.",
        "First calculate the basic contract settlement: (25 + the absolute difference between the declarer’s card points and the target) × the contract multiplier. If the contract succeeds, each defender pays the declarer. If it fails, the declarer pays each defender.",
        "Example: Garde has multiplier 2. With 2 bouts the target is 41, and the declarer takes 45 card points. With no extra bonuses, each defender pays (25 + 4) × 2 = 58 points, and the declarer receives 174 in total.",
        "Finally add or subtract the Petit, Poignée and Chelem bonuses according to which side earns them. These can change the final settlement.",
        "All three defenders have the same final gain or loss. The taker’s is three times each defender’s with the opposite sign, making the four scores sum to zero.",
      ],
    ],
    rulingsTitle: "Table rulings: how this table settles the details",
    rulings: [
      "Seats play in turn anticlockwise: the player after you sits at your right. The player to the dealer’s right bids first and leads the first trick; on a table of several deals the deal passes to the right.",
      "Petit sec is checked on the 18 dealt cards, before bidding. A cancelled deal (Petit sec, or four passes) scores nothing and is dealt again.",
      "Bidding is one round: each player speaks exactly once, passing or bidding strictly above the highest bid so far.",
      "The discard: let n be the taker’s ordinary cards (neither trumps, nor Kings, nor the Excuse). With six or more, the discard is six ordinary cards; with fewer, it is all n of them plus 6 − n trumps from 2 to 20.",
      "Bouts in the chien count for the side that receives the chien.",
      "A poignée is exactly 10, 13 or 15 trumps, shown as you play your first card; each player may show at most one.",
      "The Excuse may be played instead of a card you would otherwise have to play.",
      "Points move in halves and are never rounded: a score may end in .5.",
      "When the taker announces a chelem and the defence wins all 18 tricks, both the taker’s −200 and the defence’s +200 apply.",
      "The taker’s result per defender adds the contract score (+ if made, − if not), the petit au bout (+ or − by the side that won it), each poignée (+ if the contract is made, − if not) and the chelem bonuses. Each defender scores the opposite, the taker three times it.",
    ],
  },
  fr: {
    title: "Règles complètes",
    intro:
      "Enchérissez pour devenir le preneur et affronter trois défenseurs. Remportez des points et les trois bouts pour réussir votre contrat.",
    sections: [
      [
        "Objectif",
        "Les trois bouts sont Le Bateleur (l’atout I, le Petit), Le Monde (l’atout XXI) et Le Mat (le Fou, qui suit les règles de l’Excuse). L’objectif du preneur dépend du nombre de bouts finalement remportés, et non du nombre reçu à la donne.",
        "Le preneur doit réunir 56 points avec 0 bout, 51 avec 1, 41 avec 2, ou 36 avec les 3. Atteindre ou dépasser l’objectif applicable fait gagner le contrat.",
      ],
      [
        "Mise en place",
        "On joue avec les 78 cartes du tarot de Marseille : 14 dans chacune des enseignes Coupes, Épées, Bâtons et Deniers, les atouts I à XXI et Le Mat (le Fou). On distribue 18 cartes à chaque joueur et six au chien. Le joueur à la droite du donneur commence, et le jeu tourne dans le sens inverse des aiguilles d’une montre.",
        "Chaque joueur parle une fois : il passe ou choisit un contrat supérieur à l’enchère en cours : Prise ×1, Garde ×2, Garde sans ×4, Garde contre ×6. Le plus fort enchérisseur devient le preneur. Les trois autres défendent ensemble.",
        "Si tout le monde passe, la donne est annulée. Elle l’est aussi en cas de Petit sec : un joueur a le Petit pour seul atout et n’a pas l’Excuse.",
      ],
      [
        "Chien et écart",
        "Prise/Garde : on retourne le chien, le preneur le prend, puis écarte six cartes. Ni les rois ni les bouts ne peuvent être écartés. On écarte d’abord des cartes ordinaires. Ce n’est que s’il y en a moins de six que des atouts autres que les bouts complètent l’écart. Les atouts écartés sont montrés à tous, et l’écart compte pour le preneur.",
        "Garde sans : le chien n’est ni retourné ni pris. Au décompte, il compte pour le preneur. Garde contre : il reste lui aussi caché, mais revient aux défenseurs au décompte.",
      ],
      [
        "Annonces avant votre première carte",
        "La Poignée est facultative. Montrez 10/13/15 atouts pour une prime de 20/30/40. L’Excuse peut remplacer un atout manquant seulement si tous les atouts sont montrés. La table propose des sélections triées pour chaque niveau possible.",
        "Exception : un preneur qui a les quatre rois et un total de 15 atouts entre sa main et les atouts qu’il a dû écarter (montrés à tous) peut inclure ces atouts écartés dans sa triple poignée.",
        "Seul le preneur peut annoncer un Chelem avant le jeu. Un chelem annoncé rapporte +400 si les 18 plis sont remportés, ou −200 en cas d’échec. Un chelem non annoncé rapporte +200 au camp qui remporte tous les plis.",
      ],
      [
        "Jouer un tour",
        "Chaque joueur joue une carte dans le pli. Fournissez à la couleur demandée si possible. Sinon, jouez un atout. Si vous n’avez ni l’une ni l’autre, jouez n’importe quelle carte. L’Excuse peut toujours être jouée.",
        "Quand vous devez jouer atout, montez sur le plus fort atout du pli si vous le pouvez, même s’il est celui d’un partenaire de la défense. Ce n’est que si vous ne le pouvez pas que vous jouez un atout plus faible. Cela vaut aussi quand l’atout est demandé.",
        "Le plus fort atout remporte le pli. Sinon, c’est la plus forte carte de la couleur demandée. Rang des cartes ordinaires, de la plus forte à la plus faible : Roi > Dame > Cavalier > Valet > 10 > … > 2 > As. Les atouts se comparent par leur numéro. Le gagnant entame le pli suivant.",
        "Normalement, le joueur à la droite du donneur entame le premier pli. Si le preneur annonce un Chelem, c’est lui qui entame.",
      ],
      [
        "L’Excuse",
        "L’Excuse ne remporte normalement pas le pli. Si elle est entamée, la carte suivante autre que l’Excuse fixe la couleur. Avant le dernier pli, elle reste à son camp d’origine. Si l’autre camp remporte le pli, la table lui accorde automatiquement 0,5 point en compensation, sans échange de carte.",
        "Au dernier pli, l’Excuse revient normalement au camp adverse. Exception : si son camp a remporté les 17 plis précédents et entame le dernier pli avec l’Excuse, elle remporte ce pli pour compléter le chelem et reste à ce camp.",
      ],
      [
        "Points des cartes et primes",
        "Valeur des cartes : bouts et rois = 4,5. Dames = 3,5. Cavaliers = 2,5. Valets = 1,5. Autres cartes = 0,5. Le jeu totalise 91 points. Les points des cartes décident si le preneur atteint l’objectif. Ils ne constituent pas le règlement final.",
        "Petit au bout : le Petit dans le dernier pli rapporte 10 × le multiplicateur du contrat au camp qui remporte ce pli. Si un chelem se termine par l’Excuse, on considère l’avant-dernier pli.",
        "Les primes de Poignée vont au camp qui gagne le contrat, pas forcément à celui qui l’a montrée. Ni la Poignée ni le Chelem ne sont multipliés par le contrat.",
      ],
      [
        "Décompte et fin",
        "Après les 18 plis, comptez les points du preneur, y compris le chien ou l’écart qui lui reviennent et les ajustements de l’Excuse. Les bouts remportés déterminent l’objectif.",
        "Calculez d’abord la valeur de base du contrat : (25 + la différence absolue entre les points du preneur et l’objectif) × le multiplicateur du contrat. Si le contrat est réussi, chaque défenseur paie le preneur. S’il chute, le preneur paie chaque défenseur.",
        "Exemple : la Garde a pour multiplicateur 2. Avec 2 bouts, l’objectif est 41, et le preneur réalise 45 points. Sans autre prime, chaque défenseur paie (25 + 4) × 2 = 58 points, et le preneur reçoit 174 au total.",
        "Ajoutez ou retranchez enfin les primes de Petit au bout, de Poignée et de Chelem selon le camp qui les gagne. Elles peuvent changer le règlement final.",
        "Les trois défenseurs ont le même gain ou la même perte. Celui du preneur vaut trois fois celui de chaque défenseur, de signe opposé : la somme des quatre scores est nulle.",
      ],
    ],
    rulingsTitle: "Précisions : comment cette table tranche les détails",
    rulings: [
      "On joue à tour de rôle dans le sens inverse des aiguilles d’une montre : le joueur suivant est assis à votre droite. Le joueur à la droite du donneur parle le premier et entame le premier pli ; sur une table de plusieurs donnes, la donne passe à droite.",
      "Le Petit sec se vérifie sur les 18 cartes distribuées, avant les enchères. Une donne annulée (Petit sec ou quatre passes) ne rapporte rien et est redistribuée.",
      "Les enchères se font en un seul tour : chaque joueur parle exactement une fois, pour passer ou enchérir strictement au-dessus de la plus forte enchère.",
      "L’écart : soit n le nombre de cartes ordinaires du preneur (ni atouts, ni rois, ni l’Excuse). S’il en a six ou plus, l’écart compte six cartes ordinaires ; sinon, toutes les n cartes ordinaires plus 6 − n atouts du 2 au 20.",
      "Les bouts du chien comptent pour le camp qui reçoit le chien.",
      "Une poignée compte exactement 10, 13 ou 15 atouts, montrés en jouant votre première carte ; chaque joueur en montre une au plus.",
      "L’Excuse peut être jouée à la place d’une carte que vous devriez sinon jouer.",
      "Les points vont par demis et ne sont jamais arrondis : un score peut finir par ,5.",
      "Si le preneur annonce un chelem et que la défense remporte les 18 plis, le −200 du preneur et le +200 de la défense s’appliquent tous les deux.",
      "Le résultat du preneur par défenseur additionne la valeur du contrat (+ s’il est réussi, − sinon), le Petit au bout (+ ou − selon le camp qui l’a gagné), chaque poignée (+ si le contrat est réussi, − sinon) et les primes de chelem. Chaque défenseur marque l’opposé, le preneur trois fois ce résultat.",
    ],
  },
  nl: {
    title: "Volledige regels",
    intro:
      "Bied om nemer te worden en neem het op tegen drie verdedigers. Verover kaartpunten en de drie sleutelkaarten (bouts) om je contract te halen.",
    sections: [
      [
        "Doel",
        "De drie bouts zijn Le Bateleur (troef I, de Petit), Le Monde (troef XXI) en Le Mat (de Dwaas, die de regels van de Excuse volgt). Het doel van de nemer hangt af van het aantal bouts dat hij uiteindelijk verovert, niet van het aantal dat hij bij het delen kreeg.",
        "De nemer heeft 56 kaartpunten nodig met 0 bouts, 51 met 1, 41 met 2 of 36 met alle 3. Wie het geldende doel haalt of overschrijdt, wint het contract.",
      ],
      [
        "Voorbereiding",
        "Speel met alle 78 Marseillekaarten: 14 in elk van de kleuren Bekers, Zwaarden, Staven en Munten, de troeven I–XXI en Le Mat (de Dwaas). Geef elke speler 18 kaarten en leg er zes in de chien. De speler rechts van de gever begint, en er wordt tegen de klok in gespeeld.",
        "Elke speler biedt één keer: hij past of kiest een contract dat hoger is dan het huidige bod: Prise ×1, Garde ×2, Garde sans ×4, Garde contre ×6. De hoogste bieder wordt nemer. De andere drie verdedigen samen.",
        "Als iedereen past, wordt het spel geannuleerd. Ook bij Petit sec wordt het spel geannuleerd: een speler heeft de Petit als enige troef en heeft de Excuse niet.",
      ],
      [
        "Chien en afleg",
        "Prise/Garde: de chien wordt opengelegd, de nemer neemt hem bij zijn kaarten en legt er daarna zes af. Koningen en bouts mogen niet worden afgelegd. Leg eerst gewone kaarten af. Alleen als er daarvan minder dan zes zijn, vullen troeven die geen bout zijn het tekort aan. Afgelegde troeven worden aan iedereen getoond, en de afleg telt voor de nemer.",
        "Garde sans: de chien wordt niet opengelegd en niet genomen. Bij de afrekening telt hij voor de nemer. Garde contre: ook dan blijft hij verborgen, maar bij de afrekening gaat hij naar de verdedigers.",
      ],
      [
        "Aankondigingen vóór je eerste kaart",
        "Een poignée (handvol) is niet verplicht. Toon 10/13/15 troeven voor een bonus van 20/30/40. De Excuse mag één ontbrekende troef vervangen, maar alleen als je al je troeven toont. De tafel biedt gesorteerde selecties aan voor elk mogelijk niveau.",
        "Uitzondering: een nemer met alle vier de koningen en in totaal 15 troeven in zijn hand en in de verplicht afgelegde (openbare) troeven, mag die afgelegde troeven in zijn driedubbele poignée opnemen.",
        "Alleen de nemer mag vóór het spel een chelem aankondigen. Een aangekondigde chelem levert +400 op als alle 18 slagen worden gewonnen, of −200 als dat mislukt. Een niet-aangekondigde chelem levert +200 op voor de partij die alle slagen wint.",
      ],
      [
        "Een beurt spelen",
        "Elke speler speelt één kaart in de slag. Beken de gevraagde kleur als je kunt. Anders speel je een troef. Heb je geen van beide, speel dan een willekeurige kaart. De Excuse mag altijd worden gespeeld.",
        "Moet je troef spelen, ga dan over de hoogste troef in de slag heen als je kunt, ook als die van een medeverdediger is. Alleen als dat niet kan, mag je een lagere troef spelen. Dit geldt ook als er troef wordt gevraagd.",
        "De hoogste troef wint de slag. Anders wint de hoogste kaart van de gevraagde kleur. Gewone kaarten, van hoog naar laag: Koning (Roi) > Dame > Paard (Cavalier) > Boer (Valet) > 10 > … > 2 > Aas. Troeven worden op hun nummer vergeleken. De winnaar komt de volgende slag uit.",
        "Normaal komt de speler rechts van de gever de eerste slag uit. Als de nemer een chelem aankondigt, komt de nemer zelf uit.",
      ],
      [
        "De Excuse",
        "De Excuse wint normaal geen slag. Wordt ze uitgekomen, dan bepaalt de volgende kaart die geen Excuse is de kleur. Vóór de laatste slag blijft ze bij haar eigen partij. Wint de andere partij de slag, dan krijgt die automatisch 0,5 punt als compensatie, zonder dat er een kaart wordt geruild.",
        "In de laatste slag gaat de Excuse normaal naar de andere partij. Uitzondering: als haar partij de 17 vorige slagen heeft gewonnen en de laatste slag met de Excuse uitkomt, wint ze die slag om de chelem te voltooien en blijft ze bij die partij.",
      ],
      [
        "Kaartpunten en bonussen",
        "Kaartpunten: bouts en koningen = 4,5. Dames = 3,5. Paarden (Cavaliers) = 2,5. Boeren = 1,5. Andere kaarten = 0,5. De kaarten tellen samen 91 punten. De kaartpunten bepalen of de nemer zijn doel haalt. Ze zijn niet de uiteindelijke afrekening.",
        "Petit au bout: de Petit in de laatste slag levert 10 × de vermenigvuldiger van het contract op voor de partij die die slag wint. Eindigt een chelem met de Excuse, dan geldt de voorlaatste slag.",
        "Poignéebonussen gaan naar de partij die het contract wint, niet noodzakelijk naar de partij die de poignée toonde. Poignée- en chelembonussen worden niet met het contract vermenigvuldigd.",
      ],
      [
        "Telling en einde",
        "Tel na 18 slagen de kaartpunten van de nemer, met de chien of de afleg als die hem toekomen en met de aanpassingen voor de Excuse. De veroverde bouts bepalen het doel.",
        "Bereken eerst de basiswaarde van het contract: (25 + het absolute verschil tussen de kaartpunten van de nemer en het doel) × de vermenigvuldiger van het contract. Is het contract gehaald, dan betaalt elke verdediger de nemer. Is het mislukt, dan betaalt de nemer elke verdediger.",
        "Voorbeeld: Garde heeft vermenigvuldiger 2. Met 2 bouts is het doel 41, en de nemer haalt 45 kaartpunten. Zonder andere bonussen betaalt elke verdediger (25 + 4) × 2 = 58 punten, en de nemer ontvangt in totaal 174.",
        "Tel ten slotte de bonussen voor Petit au bout, poignée en chelem erbij of trek ze af, naargelang de partij die ze verdient. Ze kunnen de uiteindelijke afrekening veranderen.",
        "De drie verdedigers winnen of verliezen allemaal evenveel. De score van de nemer is drie keer die van elke verdediger, met het tegengestelde teken, zodat de vier scores samen nul zijn.",
      ],
    ],
    rulingsTitle: "Verduidelijkingen: hoe deze tafel de details regelt",
    rulings: [
      "Er wordt om de beurt tegen de klok in gespeeld: de speler na jou zit rechts van je. De speler rechts van de gever biedt als eerste en komt de eerste slag uit; aan een tafel met meerdere spellen schuift het delen naar rechts door.",
      "Petit sec wordt gecontroleerd op de 18 gedeelde kaarten, vóór het bieden. Een geannuleerd spel (Petit sec of vier keer pas) levert niets op en wordt opnieuw gedeeld.",
      "Er wordt één ronde geboden: elke speler spreekt precies één keer, om te passen of strikt hoger te bieden dan het hoogste bod tot dan toe.",
      "De afleg: noem n het aantal gewone kaarten van de nemer (geen troeven, geen koningen en niet de Excuse). Heeft hij er zes of meer, dan bestaat de afleg uit zes gewone kaarten; anders uit alle n gewone kaarten plus 6 − n troeven van 2 tot 20.",
      "Bouts in de chien tellen voor de partij die de chien krijgt.",
      "Een poignée bestaat uit precies 10, 13 of 15 troeven, getoond wanneer je je eerste kaart speelt; elke speler toont er hoogstens één.",
      "De Excuse mag worden gespeeld in plaats van een kaart die je anders zou moeten spelen.",
      "Punten gaan per halve punten en worden nooit afgerond: een score kan op ,5 eindigen.",
      "Als de nemer een chelem aankondigt en de verdediging alle 18 slagen wint, gelden zowel de −200 van de nemer als de +200 van de verdediging.",
      "Het resultaat van de nemer per verdediger telt de waarde van het contract op (+ als het gehaald is, − als niet), de Petit au bout (+ of − naargelang de partij die hem won), elke poignée (+ als het contract gehaald is, − als niet) en de chelembonussen. Elke verdediger scoort het tegengestelde, de nemer drie keer dat resultaat.",
    ],
  },
};

const BOUTS = html`<div class="rule-cards" aria-hidden="true">${[
  ["T1", "Le Bateleur"],
  ["T21", "Le Monde"],
  ["EX", "Le Mat"],
].map(([code, name]) => html`<figure><span class="card">${cardSVG(code)}</span><figcaption>${name}</figcaption></figure>`)}</div>`;

/** "Garde ×2" never breaks between the name and its multiplier. */
function keepTogether(text) {
  return text.replace(/ ×(\d)/g, "\u00a0×$1");
}

/** The rules page in `lang`. */
export function rulesHTML(lang) {
  const r = RULES[lang] || RULES.en;
  const sections = r.sections.map(
    ([title, ...items], i) =>
      html`<li class="rule-section"><h3>${title}</h3><ul>${items.map((x) => html`<li>${keepTogether(x)}</li>`)}</ul>${i === 0 ? BOUTS : ""}</li>`,
  );
  return html`<article class="rules" lang="${lang}"><h2>${r.title}</h2><p class="intro">${r.intro}</p><ol class="rule-sections">${sections}</ol><section class="rulings"><h3>${r.rulingsTitle}</h3><ul>${r.rulings.map((i) => html`<li>${i}</li>`)}</ul></section></article>`;
}

export { RULES };
