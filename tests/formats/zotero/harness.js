// Runs one of Zotero's own import translators (BibTeX.js, RDF.js from
// github.com/zotero/translators) on a file, under node, and prints the items (and collections) it
// completes as JSON.
//
//   node harness.js BibTeX.js export.bib
//   node harness.js RDF.js triples.json    (RDF.js reads Zotero's parsed RDF store: the triples of
//                                           export.rdf, parsed by rdflib, see rdf_shim.js)
//   node harness.js "CSL JSON.js" export.json
//
// The translator's code runs unchanged in a vm context; this file only provides the small part of
// Zotero's translator sandbox that the import paths use (a shim, not Zotero):
//   Zotero.read, Zotero.debug, Zotero.Item / item.complete(), Zotero.Collection,
//   Zotero.Utilities (= ZU): trim, trimInternal, cleanAuthor, text2html, htmlSpecialChars,
//   unescapeHTML, strToISO, formatDate, fieldIsValidForType, cleanDOI, cleanISBN, cleanISSN,
//   itemTypeExists, getCreatorsForType, Zotero.RDF (rdf_shim.js), and for CSL JSON.js the real
//   ZU.itemFromCSLJSON (zotero/utilities' utilities_item.js, a file beside the translator) over
//   the part of Zotero's schema it reads (schema-subset.json beside it: the csl mappings and the
//   conferencePaper type), with Zotero.Schema / ItemTypes / ItemFields / CreatorTypes / Date
//   answering from that schema.
// What it prints is what the translator hands to item.complete(); Zotero's item saver then
// stores those fields (tags as strings or {tag}, notes as HTML, extra as text).
"use strict";
const fs = require("fs");
const vm = require("vm");

const [translatorPath, inputPath] = process.argv.slice(2);
const source = fs.readFileSync(translatorPath, "utf8");
// a translator file is a JSON header, then the code
const headerEnd = source.indexOf("\n}\n");
const header = JSON.parse(source.slice(0, headerEnd + 2));
const code = source.slice(headerEnd + 3);
const rdfMode = Boolean(header.configOptions && header.configOptions.dataMode === "rdf/xml");
const input = rdfMode ? "" : fs.readFileSync(inputPath, "utf8").replace(/^\uFEFF/, "");

let position = 0;
const items = [];
const collections = [];

function htmlSpecialChars(str) {
  return String(str).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;").replace(/'/g, "&#039;");
}

function plain(value) {
  // a translator's item as JSON: its own fields, without functions. RDF.js makes a subcollection
  // as an Array with name, type and children set on it (processCollection), which JSON would
  // write as []: it is written as the object Zotero's collection saver reads.
  const replacer = (k, v) => {
    if (typeof v === "function") return undefined;
    if (Array.isArray(v) && v.type === "collection") return { type: v.type, name: v.name, children: v.children };
    return v;
  };
  return JSON.parse(JSON.stringify(value, replacer));
}

// The item types of Zotero's schema that have a DOI field (those our exports produce and their
// BibTeX counterparts); BibTeX.js moves a DOI to Extra for the others.
const ITEM_TYPES = new Set(["artwork", "attachment", "audioRecording", "bill", "blogPost", "book", "bookSection", "case", "computerProgram", "conferencePaper", "dataset", "dictionaryEntry", "document", "email", "encyclopediaArticle", "film", "forumPost", "hearing", "instantMessage", "interview", "journalArticle", "letter", "magazineArticle", "manuscript", "map", "newspaperArticle", "note", "patent", "podcast", "preprint", "presentation", "radioBroadcast", "report", "standard", "statute", "thesis", "tvBroadcast", "videoRecording", "webpage"]);
// Creator types of Zotero's schema (version 42) for the item types our exports produce.
const CREATOR_TYPES = { conferencePaper: ["author", "contributor", "editor", "translator", "seriesEditor"] };
const DOI_TYPES = new Set(["journalArticle", "conferencePaper", "preprint", "report", "book", "bookSection", "thesis", "dataset", "standard"]);

const Utilities = {
  trim: (s) => String(s).trim(),
  trimInternal: (s) => String(s).replace(/[\xA0\r\n\s]+/g, " ").trim(),
  superCleanString: (s) => String(s).replace(/^[\x00-\x27\x29-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F\s]+/, "")
    .replace(/[\x00-\x28\x2A-\x2F\x3A-\x40\x5B-\x60\x7B-\x7F\s]+$/, ""),
  htmlSpecialChars,
  unescapeHTML: (s) => String(s).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'").replace(/&nbsp;/g, "\xA0").replace(/&amp;/g, "&"),
  text2html(str, singleNewlineIsParagraph) {
    str = htmlSpecialChars(str);
    if (singleNewlineIsParagraph) {
      str = "<p>" + str.replace(/\n/g, "</p><p>").replace(/  /g, "&nbsp; ") + "</p>";
    } else {
      str = "<p>" + str.replace(/\n\n/g, "</p><p>").replace(/\n/g, "<br/>").replace(/  /g, "&nbsp; ") + "</p>";
    }
    return str.replace(/<p>\s*<\/p>/g, "<p>&nbsp;</p>");
  },
  cleanAuthor(author, type, useComma) {
    author = String(author).replace(/^[\s\u00A0.,/[\]:]+/, "").replace(/[\s\u00A0.,/[\]:]+$/, "").replace(/[\s\u00A0]+/g, " ");
    let firstName, lastName;
    if (useComma) {
      const parts = author.split(/\s*,\s*/);
      lastName = parts[0];
      firstName = parts.slice(1).join(", ");
    } else {
      const space = author.lastIndexOf(" ");
      lastName = author.substring(space + 1);
      firstName = space === -1 ? "" : author.substring(0, space);
    }
    return { firstName, lastName, creatorType: type };
  },
  strToISO(str) {
    const m = /^\s*(\d{4})(?:-(\d{1,2}))?(?:-(\d{1,2}))?/.exec(String(str));
    if (!m) return false;
    return [m[1], m[2] && m[2].padStart(2, "0"), m[3] && m[3].padStart(2, "0")].filter(Boolean).join("-");
  },
  formatDate: (date) => String(date.month + 1),
  fieldIsValidForType: (field, itemType) => field !== "DOI" || DOI_TYPES.has(itemType),
  itemTypeExists: (type) => ITEM_TYPES.has(type),
  getCreatorsForType: (itemType) => CREATOR_TYPES[itemType] || ["author", "contributor", "editor", "translator"],
  cleanISBN: (s) => (/^(?:97[89]-?)?(?:\d-?){9}[\dxX]$/.test(String(s).trim()) ? String(s).replace(/-/g, "") : false),
  cleanISSN: (s) => (/^\d{4}-?\d{3}[\dxX]$/.test(String(s).trim()) ? String(s).trim() : false),
  cleanDOI(s) {
    const m = /10(?:\.[0-9]{4,})?\/[^\s]*[^\s.,]/.exec(String(s));
    return m ? m[0] : null;
  },
};

class Item {
  constructor(itemType) {
    this.itemType = itemType;
    this.creators = [];
    this.notes = [];
    this.tags = [];
    this.seeAlso = [];
    this.attachments = [];
  }
  complete() {
    items.push(plain(this));
  }
}

class Collection {
  constructor() {
    this.name = "";
    this.children = [];
  }
  complete() {
    collections.push(plain(this));
  }
}

const Zotero = {
  read(length) {
    if (position >= input.length) return false;
    if (length === undefined) { // one line, without its end
      let end = input.indexOf("\n", position);
      if (end === -1) end = input.length;
      const line = input.slice(position, end).replace(/\r$/, "");
      position = end + 1;
      return line;
    }
    const chunk = input.slice(position, position + length);
    position += chunk.length;
    return chunk;
  },
  debug() {},
  setProgress() {},
  getOption: () => undefined,
  getHiddenPref: () => undefined,
  Item,
  Collection,
  Utilities,
  parentTranslator: false,
};

if (rdfMode) {
  Zotero.RDF = require("./rdf_shim.js").makeRDF(JSON.parse(fs.readFileSync(inputPath, "utf8")));
}

if (header.label === "CSL JSON") {
  const dir = require("path").dirname(translatorPath);
  const schema = JSON.parse(fs.readFileSync(require("path").join(dir, "schema-subset.json"), "utf8"));
  Object.assign(Zotero, require("./schema_shim.js").makeSchema(schema));
  Utilities.deepCopy = (o) => JSON.parse(JSON.stringify(o));
  Utilities.lpad = (s, pad, length) => String(s).padStart(length, pad);
  const context = vm.createContext({ Zotero });
  const fragment = fs.readFileSync(require("path").join(dir, "utilities_item.itemFromCSLJSON.js"), "utf8");
  Utilities.itemFromCSLJSON = vm.runInContext("({" + fragment + "})", context).itemFromCSLJSON;
}

const sandbox = { Zotero, Z: Zotero, ZU: Utilities, console };
vm.createContext(sandbox);
vm.runInContext(code, sandbox, { filename: translatorPath });

Promise.resolve(sandbox.doImport())
  .then(() => {
    process.stdout.write(JSON.stringify({ translator: header.label, lastUpdated: header.lastUpdated, items, collections }) + "\n");
  })
  .catch((e) => {
    process.stderr.write(String(e && e.stack ? e.stack : e) + "\n");
    process.exit(1);
  });
