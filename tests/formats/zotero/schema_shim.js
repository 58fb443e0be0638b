// The part of Zotero's schema API that ZU.itemFromCSLJSON calls (Zotero.Schema.CSL_*, ItemTypes,
// ItemFields, CreatorTypes, Date), answering from a subset of Zotero's schema.json.
"use strict";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function makeSchema(schema) {
  const ids = new Map();
  const names = [];
  const id = (name) => {
    if (!ids.has(name)) {
      ids.set(name, names.length + 1);
      names.push(name);
    }
    return ids.get(name);
  };
  const types = new Map(schema.itemTypes.map((t) => [t.itemType, t]));
  const baseFields = new Set(schema.itemTypes.flatMap((t) => t.fields.filter((f) => f.baseField).map((f) => f.baseField)));
  const typeOf = (typeID) => types.get(String(names[typeID - 1]).slice(5));
  const reverse = {};
  for (const [cslType, zoteroTypes] of Object.entries(schema.csl.types)) {
    for (const zoteroType of zoteroTypes) (reverse[cslType] = reverse[cslType] || []).push(zoteroType);
  }
  return {
    Schema: {
      CSL_TEXT_MAPPINGS: schema.csl.fields.text,
      CSL_DATE_MAPPINGS: schema.csl.fields.date,
      CSL_NAME_MAPPINGS: schema.csl.names,
      CSL_TYPE_MAPPINGS_REVERSE: reverse,
    },
    ItemTypes: { getID: (name) => id("type:" + name) },
    ItemFields: {
      getID: (name) => id("field:" + name),
      getName: (fieldID) => names[fieldID - 1].slice(6),
      isBaseField: (fieldID) => baseFields.has(names[fieldID - 1].slice(6)),
      getFieldIDFromTypeAndBase(typeID, baseFieldID) {
        const base = names[baseFieldID - 1].slice(6);
        const field = (typeOf(typeID) || { fields: [] }).fields.find((f) => f.baseField === base);
        return field ? id("field:" + field.field) : false;
      },
      isValidForType(fieldID, typeID) {
        const name = names[fieldID - 1].slice(6);
        return (typeOf(typeID) || { fields: [] }).fields.some((f) => f.field === name);
      },
    },
    CreatorTypes: {
      getID: (name) => id("creator:" + name),
      getName: (creatorTypeID) => names[creatorTypeID - 1].slice(8),
      isValidForItemType(creatorTypeID, typeID) {
        const name = names[creatorTypeID - 1].slice(8);
        return (typeOf(typeID) || { creatorTypes: [] }).creatorTypes.some((c) => c.creatorType === name);
      },
      getPrimaryIDForType(typeID) {
        const primary = (typeOf(typeID) || { creatorTypes: [] }).creatorTypes.find((c) => c.primary);
        return primary ? id("creator:" + primary.creatorType) : false;
      },
    },
    Date: {
      formatDate(date) {
        if (date.month === undefined) return String(date.year);
        const month = MONTHS[date.month];
        return date.day ? `${month} ${date.day}, ${date.year}` : `${month} ${date.year}`;
      },
      strToISO: (s) => String(s),
    },
  };
}

module.exports = { makeSchema };
