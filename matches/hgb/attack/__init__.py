"""The attack helper, by feature: ``figures`` (a unit's weapons and figures), ``who`` (attacker,
weapon, targets), ``fields`` and ``reading`` (the form and what it reads), ``odds`` (direct and
indirect fire on the page), ``page`` (the event, dice on screen, the template's context), ``ecm``,
``designation`` (the house rule) and ``views``. Every number comes from ``rules.hgb.attack``."""
