/**
 * The one origin the configured keel application allows (`CORS=1`): a browser page of another origin
 * calling the API, as a single-page application served apart from it does.
 */
export const ALLOWED_ORIGIN = 'https://app.example';
