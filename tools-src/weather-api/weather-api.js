// Current weather for a city from a WeatherAPI-style HTTP API. The API key is injected by the host into the
// request (header X-Api-Key): this code never sees it. The base URL may be overridden by the host's tool config.
import { httpRequest, log } from 'talon:tool/host@0.1.0';

const DEFAULT_BASE_URL = 'https://api.weatherapi.com';

const SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 1, maxLength: 100, description: 'City name, e.g. "Lisbon".' },
    units: { type: 'string', enum: ['metric', 'imperial'], default: 'metric' },
  },
  required: ['city'],
  additionalProperties: false,
};

export function schema() {
  return JSON.stringify(SCHEMA);
}

export function description() {
  return 'Current weather (temperature, condition, wind, humidity) for a city, from the weather API.';
}

function errorText(error) {
  return typeof error?.payload === 'string' ? error.payload : String(error);
}

function baseUrl(context) {
  try {
    const parsed = context ? JSON.parse(context) : {};
    return typeof parsed?.config?.base_url === 'string' ? parsed.config.base_url.replace(/\/+$/, '') : DEFAULT_BASE_URL;
  } catch {
    return DEFAULT_BASE_URL;
  }
}

export function execute(request) {
  let params;
  try {
    params = JSON.parse(request.params);
  } catch {
    return { error: 'params must be a JSON object' };
  }
  if (typeof params?.city !== 'string' || params.city.length === 0) return { error: 'params.city must be a non-empty string' };
  const imperial = params.units === 'imperial';
  const url = `${baseUrl(request.context)}/v1/current.json?q=${encodeURIComponent(params.city)}`;
  let response;
  try {
    response = httpRequest({ method: 'GET', url, headers: [['accept', 'application/json']], body: undefined });
  } catch (error) {
    return { error: `weather API unreachable: ${errorText(error)}` };
  }
  if (response.status === 401 || response.status === 403) return { error: 'the weather API refused the credential; ask an admin to configure weather_api_key' };
  if (response.status !== 200) return { error: `weather API answered ${response.status}` };
  let data;
  try {
    data = JSON.parse(response.body);
  } catch {
    return { error: 'weather API returned invalid JSON' };
  }
  const current = data.current ?? {};
  log('info', `weather for ${params.city}`);
  return {
    output: JSON.stringify({
      city: data.location?.name ?? params.city,
      country: data.location?.country,
      temperature: imperial ? current.temp_f : current.temp_c,
      unit: imperial ? 'F' : 'C',
      condition: current.condition?.text,
      windSpeed: imperial ? current.wind_mph : current.wind_kph,
      humidity: current.humidity,
    }),
  };
}
