"""A small English gazetteer (continents, countries, US states, large regions and cities) used by the
rule-based user answerer to recognise region answers; Chinese place names come from jieba's ns tags."""

from __future__ import annotations

import re
from functools import lru_cache

_NAMES = """
Africa|Antarctica|Asia|Europe|North America|South America|Latin America|Oceania|Australia|Middle East|Scandinavia|
Caribbean|Southeast Asia|East Asia|South Asia|Central Asia|Western Europe|Eastern Europe|Sub-Saharan Africa|
Afghanistan|Albania|Algeria|Andorra|Angola|Argentina|Armenia|Austria|Azerbaijan|Bahamas|Bahrain|Bangladesh|Barbados|
Belarus|Belgium|Belize|Benin|Bhutan|Bolivia|Bosnia and Herzegovina|Botswana|Brazil|Brunei|Bulgaria|Burkina Faso|
Burundi|Cambodia|Cameroon|Canada|Cape Verde|Chad|Chile|China|Colombia|Comoros|Congo|Costa Rica|Croatia|Cuba|Cyprus|
Czech Republic|Czechia|Denmark|Djibouti|Dominican Republic|Ecuador|Egypt|El Salvador|Eritrea|Estonia|Eswatini|Ethiopia|
Fiji|Finland|France|Gabon|Gambia|Georgia|Germany|Ghana|Greece|Guatemala|Guinea|Guyana|Haiti|Honduras|Hungary|Iceland|
India|Indonesia|Iran|Iraq|Ireland|Israel|Italy|Jamaica|Japan|Jordan|Kazakhstan|Kenya|Kuwait|Kyrgyzstan|Laos|Latvia|
Lebanon|Lesotho|Liberia|Libya|Liechtenstein|Lithuania|Luxembourg|Madagascar|Malawi|Malaysia|Maldives|Mali|Malta|
Mauritania|Mauritius|Mexico|Moldova|Monaco|Mongolia|Montenegro|Morocco|Mozambique|Myanmar|Namibia|Nepal|Netherlands|
New Zealand|Nicaragua|Niger|Nigeria|North Korea|North Macedonia|Norway|Oman|Pakistan|Panama|Papua New Guinea|Paraguay|
Peru|Philippines|Poland|Portugal|Qatar|Romania|Russia|Rwanda|Saudi Arabia|Senegal|Serbia|Singapore|Slovakia|Slovenia|
Somalia|South Africa|South Korea|Korea|South Sudan|Spain|Sri Lanka|Sudan|Suriname|Sweden|Switzerland|Syria|Taiwan|
Tajikistan|Tanzania|Thailand|Togo|Tunisia|Turkey|Turkmenistan|Uganda|Ukraine|United Arab Emirates|United Kingdom|UK|
Britain|Great Britain|England|Scotland|Wales|Northern Ireland|United States|USA|US|U.S.|America|Uruguay|Uzbekistan|
Venezuela|Vietnam|Yemen|Zambia|Zimbabwe|Hong Kong|Macau|
Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Hawaii|Idaho|Illinois|Indiana|Iowa|
Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|
New Hampshire|New Jersey|New Mexico|New York|North Carolina|North Dakota|Ohio|Oklahoma|Oregon|Pennsylvania|
Rhode Island|South Carolina|South Dakota|Tennessee|Texas|Utah|Vermont|Virginia|Washington|West Virginia|Wisconsin|Wyoming|
Ontario|Quebec|British Columbia|Alberta|Bavaria|Catalonia|Siberia|Tibet|Xinjiang|Guangdong|Sichuan|Yunnan|
London|Paris|Berlin|Madrid|Rome|Moscow|Beijing|Shanghai|Shenzhen|Guangzhou|Tokyo|Osaka|Seoul|Delhi|New Delhi|Mumbai|
Bangalore|Sydney|Melbourne|Toronto|Vancouver|Montreal|Chicago|Los Angeles|San Francisco|Boston|Seattle|Houston|
Dallas|Miami|Atlanta|Washington, D.C.|Mexico City|Sao Paulo|São Paulo|Rio de Janeiro|Buenos Aires|Cairo|Lagos|
Nairobi|Johannesburg|Istanbul|Dubai|Singapore|Bangkok|Jakarta|Manila|Hanoi|Kuala Lumpur|Amsterdam|Brussels|Vienna|
Prague|Warsaw|Stockholm|Oslo|Copenhagen|Helsinki|Dublin|Lisbon|Athens|Zurich|Geneva|Munich|Milan|Barcelona
"""
PLACES = tuple(sorted({n.strip() for n in _NAMES.replace("\n", "").split("|") if n.strip()}, key=len, reverse=True))


@lru_cache(maxsize=1)
def _pattern() -> re.Pattern[str]:
    names = "|".join(re.escape(p) for p in PLACES)
    # "Springfield, Illinois": a capitalized word before a known place is part of the answer.
    return re.compile(rf"(?:\b[A-Z][\w.'-]+,\s+)?(?<![\w])(?:{names})(?![\w])")


def find_places(text: str) -> list[str]:
    """Place mentions in order of appearance (longest names win)."""
    return [m.group(0) for m in _pattern().finditer(text)]
