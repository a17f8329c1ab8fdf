// A CommonJS app on Express 4: require(), as many existing Express apps are written.
const express = require('express');
const { muralRouter } = require('mural/express');
const { AuthorResource, BookResource, seed, sequelize } = require('./library.js');

const app = express();
app.use(muralRouter({
  resources: [AuthorResource, BookResource],
  // Server-Timing when asked for; the test's X-Break makes the app's own function throw, which must cost only that request
  serverTiming: (req) => {
    if (req.get('X-Break') === 'yes') throw new Error('the app failed deciding on Server-Timing');
    return req.get('X-Timing') === 'yes';
  },
}));
let server;
seed().then(() => {
  server = app.listen(0, () => console.log(`listening ${server.address().port}`));
});
process.on('SIGTERM', () => server.close(() => void sequelize.close()));
