// Zotero.RDF for translators with "dataMode": "rdf/xml" (RDF.js), over triples parsed beforehand
// (the tests parse our RDF/XML with rdflib and pass the triples as JSON):
//   [[subject, predicate, object], ...] with {"uri": u} | {"bnode": id} | {"literal": text}.
// The methods and their answers follow Zotero's translator sandbox (Zotero.Translate.IO RDF):
// resources are objects (interned, so the same resource is the same object), literals strings,
// and a query with no answer gives false.
"use strict";

const RDF_NS = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";

function makeRDF(triples) {
  const nodes = new Map();
  const node = (term) => {
    if (term === undefined || term === null) return term;
    if ("literal" in term) return term.literal;
    const key = "uri" in term ? term.uri : "_:" + term.bnode;
    if (!nodes.has(key)) nodes.set(key, { uri: key });
    return nodes.get(key);
  };
  const statements = triples.map(([s, p, o]) => [node(s), node(p), node(o)]);
  const orFalse = (list) => (list.length ? list : false);
  const unique = (list) => [...new Set(list)];
  const uriOf = (r) => (typeof r === "string" ? r : r && r.uri);
  const same = (a, b) => (typeof b === "string" ? a === b : uriOf(a) === uriOf(b));

  return {
    getResourceURI: (resource) => uriOf(resource),
    getAllResources: () => orFalse(unique(statements.map(([s]) => s))),
    getTargets(resource, property) {
      if (!resource || typeof resource !== "object") return false;
      return orFalse(statements.filter(([s, p]) => s === resource && p.uri === property).map(([, , o]) => o));
    },
    getSources(resource, property) {
      return orFalse(statements.filter(([, p, o]) => same(o, resource) && p.uri === property).map(([s]) => s));
    },
    getArcsIn(resource) {
      return orFalse(unique(statements.filter(([, , o]) => same(o, resource)).map(([, p]) => p)));
    },
    getArcsOut(resource) {
      return orFalse(unique(statements.filter(([s]) => s === resource).map(([, p]) => p)));
    },
    getStatementsMatching(subject, predicate, object) {
      return orFalse(statements.filter(([s, p, o]) => (!subject || s === subject)
        && (!predicate || uriOf(p) === uriOf(predicate)) && (object === undefined || same(o, object))));
    },
    getContainerElements(resource) {
      const members = statements
        .filter(([s, p]) => s === resource && p.uri.startsWith(RDF_NS + "_"))
        .map(([, p, o]) => [parseInt(p.uri.slice(RDF_NS.length + 1), 10), o]);
      return members.sort((a, b) => a[0] - b[0]).map(([, o]) => o);
    },
  };
}

module.exports = { makeRDF };
