// Places a basic-phone caller may type, with the coordinates of their centre, so an SOS from USSD reaches the
// right area room without GPS. Towns and the busiest Lagos and Abuja districts; approximate to about 1 km.

export interface KnownPlace {
  name: string;
  latitude: number;
  longitude: number;
}

const PLACES: KnownPlace[] = [
  { name: "Lagos", latitude: 6.455, longitude: 3.3841 },
  { name: "Lagos Island", latitude: 6.455, longitude: 3.3841 },
  { name: "Ikeja", latitude: 6.6018, longitude: 3.3515 },
  { name: "Lekki", latitude: 6.4698, longitude: 3.5852 },
  { name: "Surulere", latitude: 6.4969, longitude: 3.3542 },
  { name: "Yaba", latitude: 6.5095, longitude: 3.3711 },
  { name: "Ajah", latitude: 6.4672, longitude: 3.5717 },
  { name: "Victoria Island", latitude: 6.4281, longitude: 3.4219 },
  { name: "Ikorodu", latitude: 6.6194, longitude: 3.5105 },
  { name: "Oshodi", latitude: 6.5568, longitude: 3.3436 },
  { name: "Mushin", latitude: 6.5273, longitude: 3.3414 },
  { name: "Apapa", latitude: 6.4489, longitude: 3.3592 },
  { name: "Agege", latitude: 6.6194, longitude: 3.3209 },
  { name: "Festac", latitude: 6.4667, longitude: 3.2833 },
  { name: "Badagry", latitude: 6.4157, longitude: 2.8813 },
  { name: "Ota", latitude: 6.6804, longitude: 3.2356 },
  { name: "Abeokuta", latitude: 7.1475, longitude: 3.3619 },
  { name: "Sagamu", latitude: 6.8322, longitude: 3.6319 },
  { name: "Ibadan", latitude: 7.3775, longitude: 3.947 },
  { name: "Oyo", latitude: 7.8526, longitude: 3.9312 },
  { name: "Ogbomoso", latitude: 8.1337, longitude: 4.2407 },
  { name: "Osogbo", latitude: 7.7827, longitude: 4.5418 },
  { name: "Ile-Ife", latitude: 7.4905, longitude: 4.5521 },
  { name: "Akure", latitude: 7.2571, longitude: 5.2058 },
  { name: "Ado-Ekiti", latitude: 7.6211, longitude: 5.2214 },
  { name: "Ilorin", latitude: 8.4966, longitude: 4.5426 },
  { name: "Abuja", latitude: 9.0765, longitude: 7.3986 },
  { name: "Garki", latitude: 9.0333, longitude: 7.4893 },
  { name: "Wuse", latitude: 9.0699, longitude: 7.4796 },
  { name: "Maitama", latitude: 9.0882, longitude: 7.4934 },
  { name: "Kubwa", latitude: 9.1548, longitude: 7.3226 },
  { name: "Nyanya", latitude: 9.0167, longitude: 7.5667 },
  { name: "Kano", latitude: 12.0022, longitude: 8.592 },
  { name: "Kaduna", latitude: 10.5105, longitude: 7.4165 },
  { name: "Zaria", latitude: 11.0855, longitude: 7.7199 },
  { name: "Katsina", latitude: 12.9908, longitude: 7.6018 },
  { name: "Sokoto", latitude: 13.0059, longitude: 5.2476 },
  { name: "Birnin Kebbi", latitude: 12.4539, longitude: 4.1975 },
  { name: "Gusau", latitude: 12.1628, longitude: 6.6614 },
  { name: "Dutse", latitude: 11.7564, longitude: 9.3389 },
  { name: "Maiduguri", latitude: 11.8311, longitude: 13.151 },
  { name: "Damaturu", latitude: 11.747, longitude: 11.9608 },
  { name: "Bauchi", latitude: 10.3103, longitude: 9.8439 },
  { name: "Gombe", latitude: 10.2897, longitude: 11.1673 },
  { name: "Yola", latitude: 9.2035, longitude: 12.4954 },
  { name: "Jalingo", latitude: 8.8937, longitude: 11.3596 },
  { name: "Jos", latitude: 9.8965, longitude: 8.8583 },
  { name: "Lafia", latitude: 8.4939, longitude: 8.5153 },
  { name: "Makurdi", latitude: 7.7322, longitude: 8.5391 },
  { name: "Lokoja", latitude: 7.8023, longitude: 6.7333 },
  { name: "Minna", latitude: 9.6139, longitude: 6.5569 },
  { name: "Enugu", latitude: 6.4584, longitude: 7.5464 },
  { name: "Nsukka", latitude: 6.8567, longitude: 7.3958 },
  { name: "Onitsha", latitude: 6.1498, longitude: 6.7857 },
  { name: "Awka", latitude: 6.2104, longitude: 7.0741 },
  { name: "Nnewi", latitude: 6.0199, longitude: 6.9172 },
  { name: "Abakaliki", latitude: 6.3249, longitude: 8.1137 },
  { name: "Owerri", latitude: 5.485, longitude: 7.035 },
  { name: "Umuahia", latitude: 5.532, longitude: 7.486 },
  { name: "Aba", latitude: 5.1066, longitude: 7.3667 },
  { name: "Port Harcourt", latitude: 4.8156, longitude: 7.0498 },
  { name: "Yenagoa", latitude: 4.9267, longitude: 6.2676 },
  { name: "Uyo", latitude: 5.0377, longitude: 7.9128 },
  { name: "Calabar", latitude: 4.9757, longitude: 8.3417 },
  { name: "Benin City", latitude: 6.335, longitude: 5.6037 },
  { name: "Benin", latitude: 6.335, longitude: 5.6037 },
  { name: "Warri", latitude: 5.5544, longitude: 5.7932 },
  { name: "Asaba", latitude: 6.2059, longitude: 6.6959 },
];

const words = (s: string) =>
  ` ${s
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;

/** The known place a typed text names ('near Ikeja bus stop' → Ikeja); the most specific one wins. */
export function findPlace(text: string): KnownPlace | null {
  const haystack = words(text);
  let best: KnownPlace | null = null;
  for (const place of PLACES) {
    if (haystack.includes(words(place.name)) && (!best || place.name.length > best.name.length)) best = place;
  }
  return best;
}
