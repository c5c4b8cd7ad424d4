import { Controller, Get } from 'keel';

@Controller('{{path}}')
export class {{className}} {
  // GET /{{path}}
  @Get()
  index() {
    return { {{collection}}: [] };
  }
}
