/**
 * Evaluation corpus for the built-in model: six generated documents on
 * distinct topics. Every page has a heading and paragraphs of topical prose
 * drawn from a pool (so vocabulary overlaps across pages, as in a real
 * document, and distractor sentences share words with the facts); a few pages
 * each carry one fact, and each fact comes with a paraphrased question whose
 * answer sits on that page only.
 *
 * Questions were written before running the model and are not adjusted to it;
 * they avoid copying the fact's wording (synonyms, different structure), so
 * the share of correctly cited pages says something about paraphrases too.
 * Deterministic: the same seed gives the same pages.
 */
import type { PageText } from "#domain/library/chunking";

export interface EvalFact {
  page: number;
  heading: string;
  text: string;
  question: string;
}

export interface EvalTopic {
  id: string;
  name: string;
  pages: number;
  headings: string[];
  filler: string[];
  facts: EvalFact[];
}

export interface EvalQuestion {
  question: string;
  documentId: string;
  pageNumber: number;
}

export const TOPICS: EvalTopic[] = [
  {
    id: "lease",
    name: "Harbor View Residential Lease",
    pages: 12,
    headings: ["Parties and premises", "Use of the apartment", "House rules", "Common areas", "Utilities", "Inspections", "Liability", "General provisions"],
    filler: [
      "The tenant shall keep the premises clean and in good condition throughout the term of this agreement.",
      "The landlord remains responsible for the structural elements of the building.",
      "All notices under this agreement must be given in writing and delivered to the addresses listed on the first page.",
      "This agreement is governed by the laws of the jurisdiction in which the property is located.",
      "Any change to this agreement is valid only if both parties sign it.",
      "The property manager acts on behalf of the landlord for day-to-day matters.",
      "Common areas such as the stairwell and the bicycle room are shared with other residents.",
      "Quiet hours apply between ten in the evening and seven in the morning.",
      "The tenant may not sublet the apartment without the landlord's prior approval.",
      "Smoke detectors are installed in every bedroom and must not be disabled.",
      "Keys and access badges remain the property of the landlord.",
      "Rubbish must be sorted and placed in the containers in the courtyard.",
      "The landlord may inspect the apartment once a year after giving reasonable notice.",
      "Utility costs for water and heating are charged in advance and settled once a year.",
      "The tenant is liable for damage caused by guests or visitors.",
      "Balconies may not be used for storage of furniture or bulky items.",
      "Insurance for the tenant's personal belongings is recommended but not required.",
      "Parking spaces can be rented separately under a different contract.",
      "Payments received after the due date may incur a late fee as described in the schedule.",
      "Decorations that require drilling into the walls need written consent.",
      "Both parties keep a signed copy of this agreement.",
    ],
    facts: [
      {
        page: 2,
        heading: "Rent and payment",
        text: "Monthly rent is 1,450 euros, payable on or before the fifth day of each month by bank transfer.",
        question: "How much does the apartment cost every month, and by which day is it due?",
      },
      {
        page: 4,
        heading: "Security deposit",
        text: "The tenant pays a security deposit equal to two months of rent, which the landlord returns within thirty days after the keys are handed back.",
        question: "When will I get my deposit back after I move out?",
      },
      {
        page: 6,
        heading: "Pets",
        text: "Cats and small dogs under ten kilograms are allowed with written consent from the landlord; larger animals are not permitted.",
        question: "Am I allowed to keep a dog in the flat?",
      },
      {
        page: 8,
        heading: "Ending the lease",
        text: "Either party may terminate the lease by giving ninety days of written notice before the end of a calendar month.",
        question: "How much notice do I need to give to end the lease?",
      },
      {
        page: 10,
        heading: "Repairs and maintenance",
        text: "Urgent repairs such as a broken boiler or a water leak must be reported to the property manager within 24 hours through the tenant portal.",
        question: "Who do I tell when the boiler breaks down, and how quickly?",
      },
    ],
  },
  {
    id: "handbook",
    name: "Northwind Logistics Employee Handbook",
    pages: 15,
    headings: ["Welcome", "Our values", "Code of conduct", "Salary and reviews", "Health and safety", "Learning and development", "Confidentiality", "Using this handbook"],
    filler: [
      "Northwind Logistics expects all employees to treat colleagues and customers with respect.",
      "Questions about this handbook can be sent to the human resources team.",
      "Managers hold a one-to-one meeting with each team member every month.",
      "The company reviews salaries once a year in March.",
      "Employees must complete the mandatory safety training in their first month.",
      "Confidential information about customers may not be shared outside the company.",
      "The handbook is updated regularly, and the latest version is always on the intranet.",
      "Overtime must be approved in advance by the line manager.",
      "Sick leave must be reported to the manager before 9:00 on the first day of absence.",
      "The employee assistance programme offers free and confidential counselling.",
      "Badges must be worn visibly inside the warehouses.",
      "All employees are covered by the company's accident insurance.",
      "Feedback on this policy is welcome and can be given anonymously.",
      "Performance reviews take place twice a year.",
      "Working time is recorded in the time tracking system.",
      "Employees may not accept gifts worth more than 50 euros from suppliers.",
      "Training budgets are agreed with the manager at the start of each year.",
      "Public holidays that fall on a weekend are not replaced by another day off.",
      "The canteen at the head office is open from 11:30 to 14:00.",
      "Requests for leave are approved in the HR portal by the line manager.",
    ],
    facts: [
      {
        page: 3,
        heading: "Working hours",
        text: "Core working hours are from 10:00 to 15:00, and employees choose when to start between 7:00 and 10:00.",
        question: "Between which times do I have to be working every day?",
      },
      {
        page: 5,
        heading: "Annual leave",
        text: "Full-time employees receive 28 days of paid vacation per year, and up to five unused days can be carried over to the next year.",
        question: "How many vacation days do full-time staff get?",
      },
      {
        page: 7,
        heading: "Remote work",
        text: "Employees may work from home up to three days per week after completing their probation period.",
        question: "How many days a week can I work remotely?",
      },
      {
        page: 9,
        heading: "Travel expenses",
        text: "Travel expenses must be submitted in the expense tool within 30 days, together with the original receipts.",
        question: "What is the deadline for claiming my travel costs?",
      },
      {
        page: 11,
        heading: "Parental leave",
        text: "New parents are entitled to sixteen weeks of fully paid parental leave, which can be taken within the first year after the birth or adoption.",
        question: "How long can a mother or father stay at home on paid leave after having a baby?",
      },
      {
        page: 13,
        heading: "Equipment",
        text: "Every employee receives a laptop and a mobile phone, which must be returned on the last working day.",
        question: "What happens to my company laptop when I leave the job?",
      },
    ],
  },
  {
    id: "inverter",
    name: "SunVolt X200 Inverter Manual",
    pages: 14,
    headings: ["About this manual", "Product overview", "Technical data", "Cabling", "Monitoring app", "Operation", "Troubleshooting", "Disposal"],
    filler: [
      "The SunVolt X200 converts direct current from solar panels into alternating current for the household grid.",
      "Read this manual completely before installation.",
      "Only qualified electricians may install or service the inverter.",
      "Keep this manual near the device for future reference.",
      "The inverter operates at ambient temperatures between minus 20 and plus 50 degrees Celsius.",
      "The device is designed for indoor and sheltered outdoor use.",
      "Cables must be routed so that they cannot be damaged by sharp edges.",
      "The monitoring app shows daily and yearly energy production.",
      "The inverter restarts automatically after a grid outage.",
      "Firmware updates are installed through the monitoring app.",
      "Dispose of the device according to local regulations for electronic waste.",
      "The power output is reduced automatically when the device becomes too hot.",
      "The display shows the current output in kilowatts.",
      "Contact customer support if a fault persists after a restart.",
      "Use only the connectors supplied with the inverter.",
      "The serial number is printed on the label on the side of the housing.",
      "Protective gloves should be worn when handling the panels.",
      "The inverter supports up to two independent strings of solar panels.",
      "Check the DC cables for visible damage during each inspection.",
      "The grid connection must comply with the requirements of the local network operator.",
    ],
    facts: [
      {
        page: 2,
        heading: "Safety instructions",
        text: "Before opening the housing, disconnect both the AC grid and the DC solar input and wait at least five minutes for the capacitors to discharge.",
        question: "How long should I wait after switching everything off before I open the housing?",
      },
      {
        page: 4,
        heading: "Installation",
        text: "Mount the inverter on a vertical wall with at least 30 centimetres of free space on each side for ventilation.",
        question: "How much space must be left around the inverter when it is mounted?",
      },
      {
        page: 6,
        heading: "Status lights",
        text: "A flashing red LED means a grid fault; a steady green LED means the inverter is feeding power into the grid.",
        question: "What does a blinking red light on the inverter mean?",
      },
      {
        page: 8,
        heading: "Error codes",
        text: "Error code E07 indicates that the DC input voltage is above the maximum of 600 volts.",
        question: "My inverter shows E07, what is wrong?",
      },
      {
        page: 10,
        heading: "Maintenance",
        text: "Clean the cooling fins with a dry brush every six months; never use water or solvents.",
        question: "How often do the cooling fins need cleaning, and with what?",
      },
      {
        page: 12,
        heading: "Warranty",
        text: "The standard warranty covers ten years from the date of purchase and can be extended to fifteen years by registering the product online.",
        question: "How can I get a longer warranty?",
      },
    ],
  },
  {
    id: "bridge",
    name: "The Kessling Bridge: A History",
    pages: 12,
    headings: ["Introduction", "The river trade", "The city council", "Public opinion", "Life on the banks", "The bridge in art", "Sources", "Acknowledgements"],
    filler: [
      "The bridge connects the old town of Kessling with the industrial district on the northern bank.",
      "Contemporary newspapers followed the project closely.",
      "Historians have long debated the true cost of the project.",
      "Photographs from the period show crowds gathering on both banks.",
      "The city council archives contain many letters about the bridge.",
      "The river was an important route for timber and grain.",
      "Local merchants depended on the river trade for their income.",
      "The bridge soon became a symbol of the city's growing confidence.",
      "Several paintings of the bridge hang in the municipal museum.",
      "The surrounding neighbourhoods changed rapidly in the following decades.",
      "Tolls were collected at a small booth on the southern approach.",
      "Many families in Kessling have stories about relatives who worked on the river.",
      "The ferry service continued for a few years alongside the new crossing.",
      "Engineers from other countries visited to study the structure.",
      "Debates in the council were often heated and lasted late into the night.",
      "The steel was delivered by barge from foundries upstream.",
      "The bridge appears in several novels set in the region.",
      "Maintenance records survive from almost every decade.",
      "Traffic on the bridge has grown steadily since the 1950s.",
      "The anniversary of the opening is celebrated with a festival each summer.",
    ],
    facts: [
      {
        page: 2,
        heading: "Origins",
        text: "The idea of a bridge across the Vell River was first proposed in 1868 by the merchant guild of Kessling, who were tired of waiting for the ferry.",
        question: "Who first suggested building a crossing over the Vell, and in which year?",
      },
      {
        page: 4,
        heading: "Design",
        text: "The engineer Margarethe Olsen designed the bridge as a steel truss with three spans, a radical choice at a time when stone arches were the norm.",
        question: "Who was the designer of the bridge?",
      },
      {
        page: 6,
        heading: "Construction",
        text: "Construction began in 1891 and took seven years, employing more than 1,200 workers at its peak.",
        question: "How many years did it take to build the bridge?",
      },
      {
        page: 8,
        heading: "The flood",
        text: "During the great flood of 1923 the central pier was damaged, and the bridge was closed to traffic for eighteen months.",
        question: "Why was the bridge shut for more than a year in the 1920s?",
      },
      {
        page: 10,
        heading: "Renovation",
        text: "A full renovation in 1987 replaced the wooden deck with reinforced concrete and added a separate lane for cyclists.",
        question: "When did the bridge get a bike lane?",
      },
      {
        page: 11,
        heading: "The bridge today",
        text: "Today about 24,000 vehicles cross the bridge every day, and it is listed as a protected industrial monument.",
        question: "How many cars use the bridge daily nowadays?",
      },
    ],
  },
  {
    id: "diet-study",
    name: "Mediterranean Diet and Heart Health: Study Report",
    pages: 12,
    headings: ["Background", "Methods", "Ethics", "Measurements", "Statistical analysis", "Discussion", "Funding", "References"],
    filler: [
      "The Mediterranean diet emphasises vegetables, fruit, legumes, whole grains and olive oil.",
      "Cardiovascular disease remains the leading cause of death in many countries.",
      "Dietitians met participants every three months.",
      "Blood samples were taken at the start of the study and once a year.",
      "The control group received advice to reduce all dietary fat.",
      "Data were analysed according to the intention-to-treat principle.",
      "The study was approved by the ethics committees of all participating centres.",
      "All participants gave written informed consent.",
      "Weight and blood pressure were recorded at each visit.",
      "Nuts and seeds are common in traditional Mediterranean cooking.",
      "Red meat and processed foods are eaten only occasionally.",
      "The results are consistent with earlier observational studies.",
      "Further research is needed on younger populations.",
      "Statistical significance was set at a p value below 0.05.",
      "Participants completed a food frequency questionnaire each year.",
      "Physical activity was similar in both groups.",
      "The centres were located in urban and rural areas.",
      "Dropout rates were low in both groups.",
      "The trial was funded by a public research agency.",
      "Secondary outcomes included diabetes and changes in body weight.",
    ],
    facts: [
      {
        page: 3,
        heading: "Participants",
        text: "The study enrolled 2,400 adults aged between 55 and 75 with at least one cardiovascular risk factor.",
        question: "How many people took part in the study, and how old were they?",
      },
      {
        page: 5,
        heading: "Intervention",
        text: "Participants in the intervention group were given one litre of extra virgin olive oil per week and advised to eat fish at least three times weekly.",
        question: "What did the people in the intervention arm get every week?",
      },
      {
        page: 7,
        heading: "Primary outcome",
        text: "After five years, major cardiovascular events were 28 percent lower in the intervention group than in the control group.",
        question: "By how much did the diet lower the rate of cardiovascular events?",
      },
      {
        page: 9,
        heading: "Adherence",
        text: "Adherence was measured with a 14-point questionnaire, and the average score rose from 8.7 to 11.1 points.",
        question: "How was adherence to the diet assessed?",
      },
      {
        page: 11,
        heading: "Limitations",
        text: "The main limitation is that participants and dietitians knew which group they were in, so the study was not blinded.",
        question: "Was the trial blinded?",
      },
    ],
  },
  {
    id: "annual-report",
    name: "Aurora Foods Annual Report 2025",
    pages: 15,
    headings: ["Highlights", "Our brands", "Production", "Innovation", "Governance", "Financial statements", "Investor relations", "Glossary"],
    filler: [
      "Aurora Foods produces snacks, beverages and ready meals for retailers across Europe.",
      "The figures in this report are audited unless stated otherwise.",
      "The company invested in new production lines at several plants.",
      "Customer satisfaction surveys show stable results.",
      "The board met eleven times during the year.",
      "Marketing spending increased to support new product launches.",
      "The company continued to simplify its product portfolio.",
      "Operating margins improved in the second half of the year.",
      "Digital sales channels are growing faster than traditional retail.",
      "Inflation affected the cost of packaging and energy.",
      "The supervisory board approved the financial statements in March.",
      "Aurora Foods is listed on the Frankfurt stock exchange.",
      "The company publishes a separate sustainability report each year.",
      "Several smaller brands were sold to focus on core categories.",
      "Cash flow from operations remained solid.",
      "The research centre developed over forty new recipes.",
      "Net debt was reduced compared with the previous year.",
      "Governance principles follow the national corporate governance code.",
      "Shareholders can vote online at the annual general meeting.",
      "Quarterly results are published on the investor relations website.",
    ],
    facts: [
      {
        page: 2,
        heading: "Letter from the CEO",
        text: "Revenue grew by 12 percent to 3.4 billion euros, driven mainly by strong demand for plant-based products.",
        question: "How much did revenue increase in 2025, and why?",
      },
      {
        page: 4,
        heading: "Markets",
        text: "Germany remained the largest market with 31 percent of sales, followed by France with 18 percent.",
        question: "Which country is the biggest market for Aurora?",
      },
      {
        page: 6,
        heading: "Sustainability",
        text: "By 2030 Aurora Foods aims to cut its greenhouse gas emissions in half compared with 2019.",
        question: "What is the company's target for reducing emissions?",
      },
      {
        page: 8,
        heading: "Our people",
        text: "At year end the company employed 9,800 people in 14 countries.",
        question: "How many employees does Aurora have?",
      },
      {
        page: 10,
        heading: "Dividend",
        text: "The board proposes a dividend of 1.20 euros per share, up from 1.05 euros the year before.",
        question: "How much will shareholders receive for each share?",
      },
      {
        page: 12,
        heading: "Outlook",
        text: "For 2026 management expects organic sales growth of between 5 and 7 percent.",
        question: "What growth does management forecast for next year?",
      },
      {
        page: 14,
        heading: "Risks",
        text: "The most significant risks are volatile prices for cocoa and coffee and possible disruptions in the supply chain.",
        question: "What are the main risks facing the business?",
      },
    ],
  },
];

/** Questions whose answer is in none of the documents: the model should say so. */
export const UNANSWERABLE: string[] = [
  "What is the boiling point of mercury?",
  "Who won the football world cup in 2014?",
  "How do I bake sourdough bread at home?",
  "What is the capital city of Mongolia?",
  "How many moons does Jupiter have?",
  "What tyre pressure is recommended for a mountain bike?",
  "Which programming language should I learn first?",
  "What is the population of Canada?",
];

// Deterministic PRNG (mulberry32).
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` distinct filler sentences, drawn without replacement. */
function draw(pool: string[], count: number, random: () => number): string[] {
  const copy = [...pool];
  const out: string[] = [];
  while (out.length < count && copy.length > 0) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]);
  return out;
}

/**
 * Pages of a topic: a numbered heading, then three paragraphs of three filler
 * sentences; a fact page uses the fact's heading and puts the fact inside the
 * second paragraph, between filler sentences.
 */
export function generatePages(topic: EvalTopic, pageCount = topic.pages, seed = 1): PageText[] {
  const random = rng(seed * 7919 + topic.id.length);
  const pages: PageText[] = [];
  for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
    const fact = topic.facts.find((f) => f.page === pageNumber);
    const heading = `${pageNumber}. ${fact ? fact.heading : topic.headings[(pageNumber - 1) % topic.headings.length]}`;
    const sentences = draw(topic.filler, 9, random);
    const paragraphs = [sentences.slice(0, 3), sentences.slice(3, 6), sentences.slice(6, 9)];
    if (fact) paragraphs[1].splice(1 + Math.floor(random() * 2), 0, fact.text);
    const blocks = [heading, ...paragraphs.map((p) => p.join(" "))].map((text, i) => ({ id: `p${pageNumber}-b${i}`, text }));
    pages.push({ pageNumber, text: blocks.map((b) => b.text).join("\n\n"), blocks });
  }
  return pages;
}

export function evalQuestions(): EvalQuestion[] {
  return TOPICS.flatMap((topic) => topic.facts.map((fact) => ({ question: fact.question, documentId: topic.id, pageNumber: fact.page })));
}
