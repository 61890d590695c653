"""The demo campaign: a late Roman map, six factions, unit cards, commanders, armies and a login per role."""
